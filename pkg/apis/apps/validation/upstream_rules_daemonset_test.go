package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// TestUpstreamRulesDaemonSet: pkg/webhook/daemonset/validating/daemonset_validation.go
// and daemonset_create_update_handler.go. Both served versions share these paths.
func TestUpstreamRulesDaemonSet(t *testing.T) {
	const (
		v  = "daemonset/validating/daemonset_validation.go:"
		ru = "spec.updateStrategy.rollingUpdate"
	)
	type ds = *apps.DaemonSet
	rolling := func(f func(*apps.RollingUpdateDaemonSet)) func(ds) {
		return func(d ds) { f(d.Spec.UpdateStrategy.RollingUpdate) }
	}
	cases := []upstreamWorkloadRule[ds]{
		{upstream: v + "validateDaemonSet: metadata (name a DNS subdomain)",
			mutate: func(d ds) { d.Name = "Bad_Name" }, want: []wantErr{invalid("metadata.name")}},
		{upstream: v + "validateDaemonSetSpec: selector valid",
			mutate: func(d ds) {
				d.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "tier", Operator: "Near"}}
			}, want: []wantErr{invalid("spec.selector.matchExpressions[0].operator")}},
		{upstream: v + "validateDaemonSetSpec: selector matches template labels",
			mutate: func(d ds) { d.Spec.Template.Labels = map[string]string{"app": "other"} },
			want:   []wantErr{invalid("spec.template.metadata.labels")}},
		{upstream: v + "validateDaemonSetSpec: selector not empty",
			mutate: func(d ds) { d.Spec.Selector = &metav1.LabelSelector{} }, want: []wantErr{invalid("spec.selector", "empty selector")}},
		{upstream: v + "validateDaemonSetSpec: template is a valid pod template (ValidatePodTemplateSpec)",
			mutate: func(d ds) { d.Spec.Template.Spec.Containers[0].Image = "" },
			want:   []wantErr{required("spec.template.spec.containers[0].image")}},
		{upstream: v + "validateDaemonSetSpec: restartPolicy Always",
			mutate: func(d ds) { d.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever },
			want:   []wantErr{notSupported("spec.template.spec.restartPolicy")}},
		{upstream: v + "validateDaemonSetSpec: no activeDeadlineSeconds",
			mutate: func(d ds) { d.Spec.Template.Spec.ActiveDeadlineSeconds = new(int64(10)) },
			want:   []wantErr{forbidden("spec.template.spec.activeDeadlineSeconds")}},
		{upstream: v + "validateDaemonSetSpec: minReadySeconds >= 0",
			mutate: func(d ds) { d.Spec.MinReadySeconds = -1 }, want: []wantErr{invalid("spec.minReadySeconds")}},
		{upstream: v + "validateDaemonSetSpec: revisionHistoryLimit >= 0",
			mutate: func(d ds) { d.Spec.RevisionHistoryLimit = int32p(-1) }, want: []wantErr{invalid("spec.revisionHistoryLimit")}},
		{upstream: v + "validateDaemonSetUpdateStrategy: RollingUpdate or OnDelete",
			mutate: func(d ds) { d.Spec.UpdateStrategy.Type = "Rolling" }, want: []wantErr{notSupported("spec.updateStrategy.type")}},
		{upstream: v + "validateDaemonSetUpdateStrategy: rollingUpdate required with RollingUpdate",
			mutate: func(d ds) { d.Spec.UpdateStrategy.RollingUpdate = nil }, want: []wantErr{required(ru)}},
		{upstream: v + "validateRollingUpdateDaemonSet: maxUnavailable a positive integer or percent of at most 100%",
			mutate: rolling(func(r *apps.RollingUpdateDaemonSet) { r.MaxUnavailable = strOrStr("150%") }),
			want:   []wantErr{invalid(ru + ".maxUnavailable")}},
		{upstream: v + "validateRollingUpdateDaemonSet: maxSurge a positive integer or percent of at most 100%",
			mutate: rolling(func(r *apps.RollingUpdateDaemonSet) { r.MaxUnavailable, r.MaxSurge = intOrStr(0), strOrStr("150%") }),
			want:   []wantErr{invalid(ru + ".maxSurge")}},
		{upstream: v + "validateRollingUpdateDaemonSet: not both maxUnavailable and maxSurge",
			mutate: rolling(func(r *apps.RollingUpdateDaemonSet) { r.MaxUnavailable, r.MaxSurge = intOrStr(1), intOrStr(1) }),
			want:   []wantErr{invalid(ru + ".maxSurge")}},
		{upstream: v + "validateRollingUpdateDaemonSet: maxUnavailable and maxSurge not both 0",
			mutate: rolling(func(r *apps.RollingUpdateDaemonSet) { r.MaxUnavailable, r.MaxSurge = intOrStr(0), intOrStr(0) }),
			want:   []wantErr{invalid(ru + ".maxUnavailable")}},
		{upstream: v + "validateRollingUpdateDaemonSet: no maxSurge with InPlaceIfPossible",
			mutate: rolling(func(r *apps.RollingUpdateDaemonSet) {
				r.Type, r.MaxUnavailable, r.MaxSurge = apps.InplaceRollingUpdateType, intOrStr(0), intOrStr(1)
			}), want: []wantErr{forbidden(ru + ".maxSurge")}},
		{upstream: v + "validateRollingUpdateDaemonSet: no maxUnavailable with Surging",
			mutate: rolling(func(r *apps.RollingUpdateDaemonSet) {
				r.Type, r.MaxUnavailable = apps.DeprecatedSurgingRollingUpdateType, intOrStr(1)
			}), want: []wantErr{forbidden(ru + ".maxUnavailable")}},
		{upstream: v + "validateRollingUpdateDaemonSet: rollingUpdateType Standard, Surging or InPlaceIfPossible",
			mutate: rolling(func(r *apps.RollingUpdateDaemonSet) { r.Type = "Blue" }),
			want:   []wantErr{notSupported(ru + ".rollingUpdateType")}},
		{upstream: v + "validateRollingUpdateDaemonSet: partition >= 0",
			mutate: rolling(func(r *apps.RollingUpdateDaemonSet) { r.Partition = int32p(-1) }),
			want:   []wantErr{invalid(ru + ".partition")}},

		// update
		{upstream: "daemonset/validating/daemonset_create_update_handler.go:validateDaemonSetUpdate: metadata update (name immutable)",
			old: storedAsIs[ds], mutate: func(d ds) { d.Name = "ds-other" }, want: []wantErr{invalid("metadata.name", "immutable")}},
		{upstream: "daemonset/validating/daemonset_create_update_handler.go:validateDaemonSetUpdate: only burstReplicas, template, lifecycle, updateStrategy, minReadySeconds, revisionHistoryLimit change (selector)",
			old: storedAsIs[ds],
			mutate: func(d ds) {
				d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "ds2"}}
				d.Spec.Template.Labels = map[string]string{"app": "ds2"}
			}, want: []wantErr{invalid("spec.selector", "immutable")}},
	}
	runUpstreamWorkloadRules(t, workloadRuleKind[ds]{
		fresh: newDaemonSet, deepCopy: func(d ds) ds { return d.DeepCopy() },
		create: ValidateDaemonSet, update: ValidateDaemonSetUpdate,
	}, cases)
}
