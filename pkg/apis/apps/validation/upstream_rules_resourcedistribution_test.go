package validation

import (
	"testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// OpenKruise's pkg/webhook/resourcedistribution/validating, rule by rule; README "Other
// kinds" says which rules we do not match.
func TestUpstreamRulesResourceDistribution(t *testing.T) {
	const (
		h      = "resourcedistribution/validating/resourcedistribution_create_update_handler.go:"
		u      = "resourcedistribution/validating/utils.go:"
		secret = `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"k":"dmFs"}}`
	)
	resource := func(raw string) func(*apps.ResourceDistribution) {
		return func(rd *apps.ResourceDistribution) { rd.Spec.Resource.Raw = []byte(raw) }
	}
	targets := func(mut func(*apps.ResourceDistributionTargets)) func(*apps.ResourceDistribution) {
		return func(rd *apps.ResourceDistribution) { mut(&rd.Spec.Targets) }
	}
	runUpstreamRules(t, upstreamKind[*apps.ResourceDistribution]{
		kind: "ResourceDistribution", valid: func() *apps.ResourceDistribution { return distribution(secret) },
		validate: ValidateResourceDistribution, validateUpdate: ValidateResourceDistributionUpdate,
	}, []upstreamRule[*apps.ResourceDistribution]{
		{rule: h + "validateResourceDistribution: metadata.name a DNS subdomain",
			mut: func(rd *apps.ResourceDistribution) { rd.Name = "Sample" }, want: []wantErr{invalid("metadata.name")}},
		{rule: u + "DeserializeResource: resource required",
			mut: resource(""), want: []wantErr{required("spec.resource")}},
		{rule: u + "DeserializeResource: resource decodes",
			mut: resource(`[1]`), want: []wantErr{invalid("spec.resource")}},
		{rule: h + "validateResourceDistributionSpecResource: a Secret or a ConfigMap (isSupportedGK)",
			mut: resource(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}`), want: []wantErr{notSupported("spec.resource.kind")}},
		{rule: h + "validateResourceDistributionSpecResource: the dry-run create refuses a bad name",
			mut: resource(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"S_1"}}`), want: []wantErr{invalid("spec.resource.metadata.name")}},
		{rule: h + "validateResourceDistributionSpecResource: the dry-run create refuses a bad data key",
			mut:  resource(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a b":"x"}}`),
			want: []wantErr{invalid("spec.resource.data[a b]")}},
		{rule: h + "validateResourceDistributionSpecResource: the resource's apiVersion immutable (only v1 is served)", update: true,
			mut: resource(`{"apiVersion":"v2","kind":"Secret","metadata":{"name":"s"}}`), want: []wantErr{notSupported("spec.resource.apiVersion")}},
		{rule: h + "validateResourceDistributionSpecResource: the resource's kind immutable", update: true,
			mut: resource(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"s"}}`), want: []wantErr{invalid("spec.resource.kind", "immutable")}},
		{rule: h + "validateResourceDistributionSpecResource: the resource's name immutable", update: true,
			mut: resource(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"t"}}`), want: []wantErr{invalid("spec.resource.metadata.name", "immutable")}},
		{rule: h + "validateResourceDistributionSpecTargets: includedNamespaces names valid",
			mut:  targets(func(t *apps.ResourceDistributionTargets) { t.IncludedNamespaces = nsList("Team_A") }),
			want: []wantErr{invalid("spec.targets.includedNamespaces.list[0].name")}},
		{rule: h + "validateResourceDistributionSpecTargets: excludedNamespaces names valid",
			mut:  targets(func(t *apps.ResourceDistributionTargets) { t.ExcludedNamespaces = nsList("Team_A") }),
			want: []wantErr{invalid("spec.targets.excludedNamespaces.list[0].name")}},
		{rule: h + "validateResourceDistributionSpecTargets: no namespace both included and excluded",
			mut: targets(func(t *apps.ResourceDistributionTargets) {
				t.IncludedNamespaces, t.ExcludedNamespaces = nsList("team-a"), nsList("team-a")
			}), want: []wantErr{invalid("spec.targets.excludedNamespaces.list[0].name", "both")}},
		{rule: h + "validateResourceDistributionSpecTargets: namespaceLabelSelector by kube's rules",
			mut:  targets(func(t *apps.ResourceDistributionTargets) { t.NamespaceLabelSelector = *matchLabels("group", "-a-") }),
			want: []wantErr{invalid("spec.targets.namespaceLabelSelector.matchLabels")}},
	})
}
