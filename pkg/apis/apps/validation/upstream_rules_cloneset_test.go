package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// TestUpstreamRulesCloneSet: pkg/webhook/cloneset/validating/validation.go and what it
// calls (apis/apps/pub/update_priority.go, UpdateScatterStrategy.FieldsValidation,
// pkg/controller/cloneset/core/cloneset_core.go). Paths are v1alpha1's; v1beta1's
// spec.updateStrategy.rollingUpdate.* are in pkg/registry/apps/cloneset.
func TestUpstreamRulesCloneSet(t *testing.T) {
	const (
		v   = "cloneset/validating/validation.go:"
		us  = "spec.updateStrategy"
		ps  = us + ".priorityStrategy"
		pri = "apis/apps/pub/update_priority.go:UpdatePriorityStrategy.FieldsValidation: "
		sca = "apis/apps/v1alpha1/cloneset_types.go:UpdateScatterStrategy.FieldsValidation: "
	)
	type cs = *apps.CloneSet
	weight := func(w int32, sel metav1.LabelSelector) func(cs) {
		return func(c cs) {
			c.Spec.UpdateStrategy.PriorityStrategy = &pub.UpdatePriorityStrategy{
				WeightPriority: []pub.UpdatePriorityWeightTerm{{Weight: w, MatchSelector: sel}}}
		}
	}
	sel := metav1.LabelSelector{MatchLabels: map[string]string{"tier": "a"}}
	cases := []upstreamWorkloadRule[cs]{
		{upstream: v + "validateCloneSet: metadata (name a DNS subdomain)",
			mutate: func(c cs) { c.Name = "Bad_Name" }, want: []wantErr{invalid("metadata.name")}},
		{upstream: v + "validateCloneSetSpec: replicas >= 0",
			mutate: func(c cs) { c.Spec.Replicas = int32p(-1) }, want: []wantErr{invalid("spec.replicas")}},
		{upstream: v + "validateCloneSetSpec: selector required",
			mutate: func(c cs) { c.Spec.Selector = nil }, want: []wantErr{required("spec.selector")}},
		{upstream: v + "validateCloneSetSpec: selector valid",
			mutate: func(c cs) {
				c.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "tier", Operator: "Near"}}
			}, want: []wantErr{invalid("spec.selector.matchExpressions[0].operator")}},
		{upstream: v + "validateCloneSetSpec: selector not empty",
			mutate: func(c cs) { c.Spec.Selector = &metav1.LabelSelector{} }, want: []wantErr{invalid("spec.selector", "empty selector")}},
		{upstream: v + "validateCloneSetSpec: selector matches template labels",
			mutate: func(c cs) { c.Spec.Template.Labels = map[string]string{"app": "other"} },
			want:   []wantErr{invalid("spec.template.metadata.labels")}},
		{upstream: v + "validateCloneSetSpec: template is a valid pod template (ValidatePodTemplateSpec)",
			mutate: func(c cs) { c.Spec.Template.Spec.Containers[0].Image = "" },
			want:   []wantErr{required("spec.template.spec.containers[0].image")}},
		{upstream: v + "validateCloneSetSpec: template volumes are the template's and the claim templates' (a mount of neither)",
			mutate: func(c cs) {
				c.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{claimTemplate("data", "1Gi")}
				c.Spec.Template.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{
					{Name: "data", MountPath: "/data"}, {Name: "logs", MountPath: "/logs"}}
			}, want: []wantErr{notFound("spec.template.spec.containers[0].volumeMounts[1].name")}},
		{upstream: v + "validateCloneSetSpec: restartPolicy Always",
			mutate: func(c cs) { c.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure },
			want:   []wantErr{notSupported("spec.template.spec.restartPolicy")}},
		{upstream: v + "validateCloneSetSpec: no activeDeadlineSeconds",
			mutate: func(c cs) { c.Spec.Template.Spec.ActiveDeadlineSeconds = new(int64(10)) },
			want:   []wantErr{forbidden("spec.template.spec.activeDeadlineSeconds")}},
		{upstream: v + "validateScaleStrategy: podsToDelete without duplicates",
			mutate: func(c cs) { c.Spec.ScaleStrategy.PodsToDelete = []string{"cs-demo-a", "cs-demo-a"} },
			want:   []wantErr{duplicate("spec.scaleStrategy.podsToDelete[1]")}},
		{upstream: v + "validateUpdateStrategy: type supported",
			mutate: func(c cs) { c.Spec.UpdateStrategy.Type = "Rolling" }, want: []wantErr{notSupported(us + ".type")}},
		{upstream: v + "validateUpdateStrategy: partition an integer or percent",
			mutate: func(c cs) { c.Spec.UpdateStrategy.Partition = strOrStr("half") }, want: []wantErr{invalid(us + ".partition")}},
		{upstream: v + "validateUpdateStrategy: partition >= 0",
			mutate: func(c cs) { c.Spec.UpdateStrategy.Partition = intOrStr(-1) }, want: []wantErr{invalid(us + ".partition")}},
		{upstream: v + "validateUpdateStrategy: maxUnavailable an integer or percent",
			mutate: func(c cs) { c.Spec.UpdateStrategy.MaxUnavailable = strOrStr("some") }, want: []wantErr{invalid(us + ".maxUnavailable")}},
		{upstream: v + "validateUpdateStrategy: maxSurge an integer or percent",
			mutate: func(c cs) { c.Spec.UpdateStrategy.MaxSurge = strOrStr("some") }, want: []wantErr{invalid(us + ".maxSurge")}},
		{upstream: v + "validateUpdateStrategy: no maxSurge with InPlaceOnly",
			mutate: func(c cs) {
				c.Spec.UpdateStrategy.Type = apps.InPlaceOnlyCloneSetUpdateStrategyType
				c.Spec.UpdateStrategy.MaxSurge = intOrStr(1)
			}, want: []wantErr{forbidden(us + ".maxSurge")}},
		{upstream: v + "validateUpdateStrategy: maxUnavailable and maxSurge not both below 1",
			mutate: func(c cs) {
				c.Spec.UpdateStrategy.MaxUnavailable = intOrStr(0)
				c.Spec.UpdateStrategy.MaxSurge = intOrStr(0)
			}, want: []wantErr{invalid(us + ".maxUnavailable")}},
		{upstream: pri + "only one of weightPriority and orderPriority",
			mutate: func(c cs) {
				weight(10, sel)(c)
				c.Spec.UpdateStrategy.PriorityStrategy.OrderPriority = []pub.UpdatePriorityOrderTerm{{OrderedKey: "rank"}}
			}, want: []wantErr{forbidden(ps)}},
		{upstream: pri + "weight in 1-100", mutate: weight(101, sel),
			want: []wantErr{invalid(ps + ".weightPriority[0].weight")}},
		{upstream: pri + "weight selector not empty", mutate: weight(10, metav1.LabelSelector{}),
			want: []wantErr{required(ps + ".weightPriority[0].matchSelector")}},
		{upstream: pri + "weight selector valid",
			mutate: weight(10, metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: "Near"}}}),
			want:   []wantErr{invalid(ps + ".weightPriority[0].matchSelector.matchExpressions[0].operator")}},
		{upstream: pri + "orderedKey not empty",
			mutate: func(c cs) {
				c.Spec.UpdateStrategy.PriorityStrategy = &pub.UpdatePriorityStrategy{OrderPriority: []pub.UpdatePriorityOrderTerm{{}}}
			}, want: []wantErr{required(ps + ".orderPriority[0].orderedKey")}},
		{upstream: sca + "key not empty",
			mutate: func(c cs) { c.Spec.UpdateStrategy.ScatterStrategy = []pub.UpdateScatterTerm{{Value: "a"}} },
			want:   []wantErr{required(us + ".scatterStrategy[0].key")}},
		{upstream: sca + "no key=value twice",
			mutate: func(c cs) {
				c.Spec.UpdateStrategy.ScatterStrategy = []pub.UpdateScatterTerm{{Key: "zone", Value: "a"}, {Key: "zone", Value: "a"}}
			}, want: []wantErr{duplicate(us + ".scatterStrategy[1]")}},

		// update
		{upstream: v + "validateCloneSetUpdate: metadata update (name immutable)", old: storedAsIs[cs],
			mutate: func(c cs) { c.Name = "cs-other" }, want: []wantErr{invalid("metadata.name", "immutable")}},
		{upstream: v + "validateCloneSetUpdate: only replicas, template, lifecycle, scaleStrategy, updateStrategy, minReadySeconds, volumeClaimTemplates, revisionHistoryLimit change (selector)",
			old: storedAsIs[cs],
			mutate: func(c cs) {
				c.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "cs2"}}
				c.Spec.Template.Labels = map[string]string{"app": "cs2"}
			}, want: []wantErr{forbidden("spec.selector")}},
		{upstream: "controller/cloneset/core/cloneset_core.go:ValidateCloneSetUpdate: with InPlaceOnly only images change",
			old: func(c cs) { c.Spec.UpdateStrategy.Type = apps.InPlaceOnlyCloneSetUpdateStrategyType },
			mutate: func(c cs) {
				c.Spec.Template.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "MODE", Value: "debug"}}
			}, want: []wantErr{forbidden("spec.template", "only image changes")}},
	}
	runUpstreamWorkloadRules(t, workloadRuleKind[cs]{
		fresh: newCloneSet, deepCopy: func(c cs) cs { return c.DeepCopy() },
		create: ValidateCloneSet, update: ValidateCloneSetUpdate,
	}, cases)
}
