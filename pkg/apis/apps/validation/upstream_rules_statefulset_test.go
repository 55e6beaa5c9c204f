package validation

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// TestUpstreamRulesStatefulSet: pkg/webhook/statefulset/validating/
// statefulset_validation.go and statefulset_create_update_handler.go (v1beta1 shape,
// which the hub and both served versions share for these paths).
func TestUpstreamRulesStatefulSet(t *testing.T) {
	const (
		v  = "statefulset/validating/statefulset_validation.go:"
		h  = "statefulset/validating/statefulset_create_update_handler.go:Handle: "
		ru = "spec.updateStrategy.rollingUpdate"
	)
	type ss = *apps.StatefulSet
	rolling := func(f func(*apps.RollingUpdateStatefulSetStrategy)) func(ss) {
		return func(s ss) { f(s.Spec.UpdateStrategy.RollingUpdate) }
	}
	onRollingUpdate := func(s ss) {
		s.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{claimTemplate("data", "1Gi")}
		s.Spec.VolumeClaimUpdateStrategy.Type = apps.OnPodRollingUpdateVolumeClaimUpdateStrategyType
	}
	cases := []upstreamWorkloadRule[ss]{
		{upstream: v + "validateStatefulSet: metadata (ValidateStatefulSetName)",
			mutate: func(s ss) { s.Name = "Web" }, want: []wantErr{invalid("metadata.name")}},
		{upstream: v + "validatePodManagementPolicy: required",
			mutate: func(s ss) { s.Spec.PodManagementPolicy = "" }, want: []wantErr{required("spec.podManagementPolicy")}},
		{upstream: v + "validatePodManagementPolicy: OrderedReady or Parallel",
			mutate: func(s ss) { s.Spec.PodManagementPolicy = "Random" }, want: []wantErr{notSupported("spec.podManagementPolicy")}},
		{upstream: v + "validateReserveOrdinals: a string is a range a-b",
			mutate: func(s ss) { s.Spec.ReserveOrdinals = []intstr.IntOrString{intstr.FromString("3-x")} },
			want:   []wantErr{invalid("spec.reserveOrdinals[0]")}},
		{upstream: v + "validateReserveOrdinals: a range parses (ParseRange: start <= end)",
			mutate: func(s ss) { s.Spec.ReserveOrdinals = []intstr.IntOrString{intstr.FromString("5-3")} },
			want:   []wantErr{invalid("spec.reserveOrdinals[0]")}},
		{upstream: v + "validateReserveOrdinals: an ordinal >= 0",
			mutate: func(s ss) { s.Spec.ReserveOrdinals = []intstr.IntOrString{intstr.FromInt32(-1)} },
			want:   []wantErr{invalid("spec.reserveOrdinals[0]")}},
		{upstream: v + "validateScaleStrategy: maxUnavailable valid (validateMaxUnavailableField)",
			mutate: func(s ss) {
				parallel(s)
				s.Spec.ScaleStrategy = &apps.StatefulSetScaleStrategy{MaxUnavailable: intOrStr(0)}
			}, want: []wantErr{invalid("spec.scaleStrategy.maxUnavailable")}},
		{upstream: v + "ValidatePersistentVolumeClaimRetentionPolicyType: whenDeleted Retain or Delete",
			mutate: func(s ss) {
				s.Spec.PersistentVolumeClaimRetentionPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
					WhenDeleted: "Keep", WhenScaled: apps.RetainPersistentVolumeClaimRetentionPolicyType}
			}, want: []wantErr{notSupported("spec.persistentVolumeClaimRetentionPolicy.whenDeleted")}},
		{upstream: v + "ValidatePersistentVolumeClaimRetentionPolicyType: whenScaled Retain or Delete",
			mutate: func(s ss) {
				s.Spec.PersistentVolumeClaimRetentionPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
					WhenDeleted: apps.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: "Keep"}
			}, want: []wantErr{notSupported("spec.persistentVolumeClaimRetentionPolicy.whenScaled")}},
		{upstream: v + "validateUpdateStrategyType: required",
			mutate: func(s ss) { s.Spec.UpdateStrategy.Type = "" }, want: []wantErr{required("spec.updateStrategy.type")}},
		{upstream: v + "validateUpdateStrategyType: RollingUpdate or OnDelete",
			mutate: func(s ss) { s.Spec.UpdateStrategy.Type = "Rolling" }, want: []wantErr{notSupported("spec.updateStrategy.type")}},
		{upstream: v + "validateOnDeleteStatefulSetStrategyType: no rollingUpdate with OnDelete",
			mutate: func(s ss) { s.Spec.UpdateStrategy.Type = appsv1.OnDeleteStatefulSetStrategyType },
			want:   []wantErr{forbidden(ru)}},
		{upstream: v + "validateRollingUpdateStatefulSetStrategyType: partition >= 0",
			mutate: rolling(func(r *apps.RollingUpdateStatefulSetStrategy) { r.Partition = int32p(-1) }),
			want:   []wantErr{invalid(ru + ".partition")}},
		{upstream: v + "validateRollingUpdateStatefulSetStrategyType: minReadySeconds >= 0",
			mutate: rolling(func(r *apps.RollingUpdateStatefulSetStrategy) { r.MinReadySeconds = int32p(-1) }),
			want:   []wantErr{invalid(ru + ".minReadySeconds")}},
		{upstream: v + "validateRollingUpdateStatefulSetStrategyType: minReadySeconds <= 300",
			mutate: rolling(func(r *apps.RollingUpdateStatefulSetStrategy) { r.MinReadySeconds = int32p(301) }),
			want:   []wantErr{invalid(ru + ".minReadySeconds")}},
		{upstream: v + "validateRollingUpdateStatefulSetStrategyType: maxUnavailable required",
			mutate: rolling(func(r *apps.RollingUpdateStatefulSetStrategy) { r.MaxUnavailable = nil }),
			want:   []wantErr{required(ru + ".maxUnavailable")}},
		{upstream: v + "validateMaxUnavailableField: a positive integer or percent",
			mutate: func(s ss) { parallel(s); s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = intOrStr(-1) },
			want:   []wantErr{invalid(ru + ".maxUnavailable")}},
		{upstream: v + "validateMaxUnavailableField: at most 100%",
			mutate: func(s ss) { parallel(s); s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = strOrStr("150%") },
			want:   []wantErr{invalid(ru + ".maxUnavailable")}},
		{upstream: v + "validateMaxUnavailableField: not less than 1",
			mutate: func(s ss) { parallel(s); s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = strOrStr("0%") },
			want:   []wantErr{invalid(ru + ".maxUnavailable")}},
		{upstream: v + "validateMaxUnavailableField: other than 1 only with Parallel",
			mutate: rolling(func(r *apps.RollingUpdateStatefulSetStrategy) { r.MaxUnavailable = intOrStr(2) }),
			want:   []wantErr{invalid(ru+".maxUnavailable", "Parallel")}},
		{upstream: v + "validatePodUpdatePolicy: required",
			mutate: rolling(func(r *apps.RollingUpdateStatefulSetStrategy) { r.PodUpdatePolicy = "" }),
			want:   []wantErr{required(ru + ".podUpdatePolicy")}},
		{upstream: v + "validatePodUpdatePolicy: ReCreate, InPlaceIfPossible or InPlaceOnly",
			mutate: rolling(func(r *apps.RollingUpdateStatefulSetStrategy) { r.PodUpdatePolicy = "Rebuild" }),
			want:   []wantErr{notSupported(ru + ".podUpdatePolicy")}},
		{upstream: v + "validatePodUpdatePolicy: in-place needs the InPlaceUpdateReady readiness gate",
			mutate: func(s ss) { inPlace(s, apps.InPlaceIfPossiblePodUpdateStrategyType, false) },
			want:   []wantErr{invalid("spec.template.spec.readinessGates", pub.InPlaceUpdateReady)}},
		{upstream: v + "validateRollingUpdateStatefulSetStrategyTypeUnorderedUpdate: only with Parallel",
			mutate: rolling(func(r *apps.RollingUpdateStatefulSetStrategy) { r.UnorderedUpdate = &apps.UnorderedUpdateStrategy{} }),
			want:   []wantErr{forbidden(ru + ".unorderedUpdate")}},
		{upstream: v + "validateRollingUpdateStatefulSetStrategyTypeUnorderedUpdate: priorityStrategy valid (FieldsValidation)",
			mutate: func(s ss) {
				parallel(s)
				s.Spec.UpdateStrategy.RollingUpdate.UnorderedUpdate = &apps.UnorderedUpdateStrategy{PriorityStrategy: &pub.UpdatePriorityStrategy{
					OrderPriority: []pub.UpdatePriorityOrderTerm{{}}}}
			}, want: []wantErr{required(ru + ".unorderedUpdate.priorityStrategy.orderPriority[0].orderedKey")}},
		{upstream: v + "validateStatefulSetSpec: replicas >= 0",
			mutate: func(s ss) { s.Spec.Replicas = int32p(-1) }, want: []wantErr{invalid("spec.replicas")}},
		{upstream: v + "validateSpecSelector: selector required",
			mutate: func(s ss) { s.Spec.Selector = nil }, want: []wantErr{required("spec.selector")}},
		{upstream: v + "validateSpecSelector: selector valid",
			mutate: func(s ss) {
				s.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "tier", Operator: "Near"}}
			}, want: []wantErr{invalid("spec.selector.matchExpressions[0].operator")}},
		{upstream: v + "validateSpecSelector: selector not empty",
			mutate: func(s ss) { s.Spec.Selector = &metav1.LabelSelector{} }, want: []wantErr{invalid("spec.selector", "empty selector")}},
		{upstream: v + "validateSpecSelector: selector matches template labels (ValidatePodTemplateSpecForStatefulSet)",
			mutate: func(s ss) { s.Spec.Template.Labels = map[string]string{"app": "other"} },
			want:   []wantErr{invalid("spec.template.metadata.labels")}},
		{upstream: v + "validateSpecSelector: template is a valid pod template (ValidatePodTemplateSpecForStatefulSet)",
			mutate: func(s ss) { s.Spec.Template.Spec.Containers[0].Image = "" },
			want:   []wantErr{required("spec.template.spec.containers[0].image")}},
		{upstream: v + "validateRestartPolicy: Always",
			mutate: func(s ss) { s.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever },
			want:   []wantErr{notSupported("spec.template.spec.restartPolicy")}},
		{upstream: v + "validateActiveDeadlineSeconds: not set",
			mutate: func(s ss) { s.Spec.Template.Spec.ActiveDeadlineSeconds = new(int64(10)) },
			want:   []wantErr{forbidden("spec.template.spec.activeDeadlineSeconds")}},

		// update
		{upstream: v + "ValidateStatefulSetUpdate: metadata update (name immutable)", old: storedAsIs[ss],
			mutate: func(s ss) { s.Name = "web2" }, want: []wantErr{invalid("metadata.name", "immutable")}},
		{upstream: v + "ValidateStatefulSetUpdate: serviceName immutable", old: storedAsIs[ss],
			mutate: func(s ss) { s.Spec.ServiceName = "other" }, want: []wantErr{forbidden("spec.serviceName")}},
		{upstream: v + "ValidateStatefulSetUpdate: podManagementPolicy immutable", old: storedAsIs[ss],
			mutate: parallel, want: []wantErr{forbidden("spec.podManagementPolicy")}},
		{upstream: v + "ValidateStatefulSetUpdate: selector immutable", old: storedAsIs[ss],
			mutate: func(s ss) {
				s.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web2"}}
				s.Spec.Template.Labels = map[string]string{"app": "web2"}
			}, want: []wantErr{forbidden("spec.selector")}},
		{upstream: v + "ValidateVolumeClaimTemplateUpdate: with OnPodRollingUpdate no claim template added or removed",
			old: onRollingUpdate,
			mutate: func(s ss) {
				s.Spec.VolumeClaimTemplates = append(s.Spec.VolumeClaimTemplates, claimTemplate("logs", "1Gi"))
			}, want: []wantErr{forbidden("spec.volumeClaimTemplates")}},
		{upstream: v + "ValidateVolumeClaimTemplateUpdate: with OnPodRollingUpdate no claim template renamed",
			old: onRollingUpdate, mutate: func(s ss) { s.Spec.VolumeClaimTemplates[0].Name = "data2" },
			want: []wantErr{forbidden("spec.volumeClaimTemplates[0].metadata.name")}},
		{upstream: v + "ValidateVolumeClaimTemplateUpdate: with OnPodRollingUpdate only sizes change",
			old: onRollingUpdate,
			mutate: func(s ss) {
				s.Spec.VolumeClaimTemplates[0].Spec.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteMany}
			}, want: []wantErr{forbidden("spec.volumeClaimTemplates[0]")}},
		{upstream: h + "validateTemplateInPlaceOnly: with InPlaceOnly only images change",
			old: func(s ss) { inPlace(s, apps.InPlaceOnlyPodUpdateStrategyType, true) },
			mutate: func(s ss) {
				s.Spec.Template.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "MODE", Value: "debug"}}
			}, want: []wantErr{forbidden("spec.template", "only image changes")}},
	}
	runUpstreamWorkloadRules(t, workloadRuleKind[ss]{
		fresh: newStatefulSet, deepCopy: func(s ss) ss { return s.DeepCopy() },
		create: ValidateStatefulSet, update: ValidateStatefulSetUpdate,
	}, cases)
}
