package validation

import (
	"testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// OpenKruise's pkg/webhook/persistentpodstate/validating, rule by rule. The rule that
// refuses a second PersistentPodState of the same workload is in
// pkg/admission/targetconflict; README "Other kinds" says which rules we do not match.
func TestUpstreamRulesPersistentPodState(t *testing.T) {
	const f = "persistentpodstate/validating/persistent_create_update_handler.go:"
	runUpstreamRules(t, upstreamKind[*apps.PersistentPodState]{
		kind: "PersistentPodState", valid: func() *apps.PersistentPodState { return podState(t, nil) },
		validate: ValidatePersistentPodState, validateUpdate: ValidatePersistentPodStateUpdate,
	}, []upstreamRule[*apps.PersistentPodState]{
		{rule: f + "validatePersistentPodStateSpec: targetRef apiVersion, kind and name required",
			mut:  func(p *apps.PersistentPodState) { p.Spec.TargetReference = apps.TargetReference{} },
			want: []wantErr{required("spec.targetRef.apiVersion"), required("spec.targetRef.kind"), required("spec.targetRef.name")}},
		{rule: f + "validatePersistentPodStateSpec: a StatefulSet, or a whitelisted kind (none is here)",
			mut: func(p *apps.PersistentPodState) {
				p.Spec.TargetReference = apps.TargetReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "echoserver"}
			}, want: []wantErr{notSupported("spec.targetRef.kind")}},
		{rule: f + "validatePersistentPodStateSpec: requiredPersistentTopology or preferredPersistentTopology",
			mut: func(p *apps.PersistentPodState) {
				p.Spec.RequiredPersistentTopology, p.Spec.PreferredPersistentTopology = nil, nil
			}, want: []wantErr{required("spec.requiredPersistentTopology")}},
		{rule: f + "validateUpdateObjImmutable: targetRef immutable", update: true,
			mut:  func(p *apps.PersistentPodState) { p.Spec.TargetReference.Name = "other" },
			want: []wantErr{invalid("spec.targetRef", "immutable")}},
	})
}
