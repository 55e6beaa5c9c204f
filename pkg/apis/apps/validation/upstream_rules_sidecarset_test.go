package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// OpenKruise's pkg/webhook/sidecarset/validating, rule by rule. The rules across
// SidecarSets (names, volumes and annotations two SidecarSets would both put into a
// pod) are in pkg/admission/sidecarsetconflict; README "Other kinds" says which rules we
// do not match.
func TestUpstreamRulesSidecarSet(t *testing.T) {
	const f = "sidecarset/validating/sidecarset_create_update_handler.go:"
	fieldRef := func(apiVersion, path string) func(*apps.SidecarSet) {
		return func(ss *apps.SidecarSet) {
			ss.Spec.Containers[0].TransferEnv = []apps.TransferEnvVar{{EnvName: "A",
				SourceContainerNameFrom: &apps.SourceContainerNameSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: apiVersion, FieldPath: path}}}}
		}
	}
	patch := func(p ...apps.SidecarSetPatchPodMetadata) func(*apps.SidecarSet) {
		return func(ss *apps.SidecarSet) { ss.Spec.PatchPodMetadata = p }
	}
	retain := func(annotations map[string]string) apps.SidecarSetPatchPodMetadata {
		return apps.SidecarSetPatchPodMetadata{Annotations: annotations, PatchPolicy: apps.SidecarSetRetainPatchPolicy}
	}
	runUpstreamRules(t, upstreamKind[*apps.SidecarSet]{
		kind: "SidecarSet", valid: func() *apps.SidecarSet { return newSidecarSet(t) },
		validate: ValidateSidecarSet, validateUpdate: ValidateSidecarSetUpdate,
	}, []upstreamRule[*apps.SidecarSet]{
		{rule: f + "validateSidecarSetName: alphanumerics and '-' only",
			mut: func(ss *apps.SidecarSet) { ss.Name = "log_sidecar" }, want: []wantErr{invalid("metadata.name")}},
		{rule: f + "validateSidecarSetName: at most 63 characters",
			mut: func(ss *apps.SidecarSet) {
				ss.Name = "a123456789012345678901234567890123456789012345678901234567890123"
			},
			want: []wantErr{invalid("metadata.name")}},
		{rule: f + "validateSidecarSetSpec: selector required",
			mut: func(ss *apps.SidecarSet) { ss.Spec.Selector = nil }, want: []wantErr{required("spec.selector")}},
		{rule: f + "validateSelector: selector not empty",
			mut: func(ss *apps.SidecarSet) { ss.Spec.Selector = matchLabels() }, want: []wantErr{invalid("spec.selector", "empty selector")}},
		{rule: f + "validateSelector: selector by kube's rules",
			mut: func(ss *apps.SidecarSet) { ss.Spec.Selector = matchLabels("app", "-bad-") }, want: []wantErr{invalid("spec.selector.matchLabels")}},
		{rule: f + "validateSidecarSetSpec: namespace and namespaceSelector mutually exclusive",
			mut: func(ss *apps.SidecarSet) {
				ss.Spec.Namespace = "default"
				ss.Spec.NamespaceSelector = matchLabels("env", "prod")
			}, want: []wantErr{forbidden("spec.namespaceSelector")}},
		{rule: f + "validateSelector: namespaceSelector not empty",
			mut: func(ss *apps.SidecarSet) { ss.Spec.NamespaceSelector = matchLabels() }, want: []wantErr{invalid("spec.namespaceSelector", "empty selector")}},
		{rule: f + "validateSidecarSetInjectionStrategy: revision names a revisionName or a customVersion",
			mut: func(ss *apps.SidecarSet) {
				ss.Spec.InjectionStrategy.Revision = &apps.SidecarSetInjectRevision{Policy: apps.AlwaysSidecarSetInjectRevisionPolicy}
			},
			want: []wantErr{required("spec.injectionStrategy.revision")}},
		{rule: f + "validateSidecarSetInjectionStrategy: revision policy Always or Partial",
			mut: func(ss *apps.SidecarSet) {
				v := "v2"
				ss.Spec.InjectionStrategy.Revision = &apps.SidecarSetInjectRevision{CustomVersion: &v, Policy: "Sometimes"}
			}, want: []wantErr{notSupported("spec.injectionStrategy.revision.policy")}},
		{rule: f + "validateSidecarSetUpdateStrategy: partition and selector not together in a rollout",
			mut: func(ss *apps.SidecarSet) {
				ss.Spec.UpdateStrategy.Selector = matchLabels("canary", "true")
				ss.Spec.UpdateStrategy.Partition = intOrStr(2)
			}, want: []wantErr{forbidden("spec.updateStrategy.partition")}},
		{rule: f + "validateSidecarSetUpdateStrategy: update selector not empty",
			mut:  func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.Selector = matchLabels() },
			want: []wantErr{invalid("spec.updateStrategy.selector", "empty selector")}},
		{rule: f + "validateSidecarSetUpdateStrategy: partition a non-negative number or percent",
			mut: func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.Partition = intOrStr(-1) }, want: []wantErr{invalid("spec.updateStrategy.partition")}},
		{rule: f + "validateSidecarSetUpdateStrategy: maxUnavailable a non-negative number or percent",
			mut:  func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.MaxUnavailable = strOrStr("-10%") },
			want: []wantErr{invalid("spec.updateStrategy.maxUnavailable")}},
		{rule: f + "validateSidecarSetUpdateStrategy: priorityStrategy.FieldsValidation (weight or order, not both)",
			mut: func(ss *apps.SidecarSet) {
				ss.Spec.UpdateStrategy.PriorityStrategy = &pub.UpdatePriorityStrategy{
					OrderPriority:  []pub.UpdatePriorityOrderTerm{{OrderedKey: "a"}},
					WeightPriority: []pub.UpdatePriorityWeightTerm{{Weight: 5, MatchSelector: *matchLabels("a", "b")}},
				}
			}, want: []wantErr{forbidden("spec.updateStrategy.priorityStrategy")}},
		{rule: f + "validateSidecarSetUpdateStrategy: scatterStrategy.FieldsValidation (key and value)",
			mut: func(ss *apps.SidecarSet) {
				ss.Spec.UpdateStrategy.ScatterStrategy = []pub.UpdateScatterTerm{{Key: "zone"}}
			},
			want: []wantErr{required("spec.updateStrategy.scatterStrategy[0].value")}},
		{rule: f + "validateSidecarSetSpec: an initContainer or a container",
			mut: func(ss *apps.SidecarSet) { ss.Spec.Containers, ss.Spec.Volumes = nil, nil }, want: []wantErr{required("spec.containers")}},
		{rule: f + "validateContainersForSidecarSet: podInjectPolicy BeforeAppContainer or AfterAppContainer",
			mut:  func(ss *apps.SidecarSet) { ss.Spec.Containers[0].PodInjectPolicy = "Anywhere" },
			want: []wantErr{notSupported("spec.containers[0].podInjectPolicy")}},
		{rule: f + "validateContainersForSidecarSet: shareVolumePolicy enabled or disabled",
			mut:  func(ss *apps.SidecarSet) { ss.Spec.Containers[0].ShareVolumePolicy.Type = "sometimes" },
			want: []wantErr{notSupported("spec.containers[0].shareVolumePolicy.type")}},
		{rule: f + "validateObjectFieldSelector: transferEnv fieldRef apiVersion required",
			mut: fieldRef("", "metadata.name"), want: []wantErr{notSupported("spec.containers[0].transferEnv[0].sourceContainerNameFrom.fieldRef.apiVersion")}},
		{rule: f + "validateObjectFieldSelector: transferEnv fieldRef fieldPath required",
			mut: fieldRef("v1", ""), want: []wantErr{required("spec.containers[0].transferEnv[0].sourceContainerNameFrom.fieldRef.fieldPath")}},
		{rule: f + "validateObjectFieldSelector: transferEnv fieldRef of metadata.name, labels or annotations",
			mut: fieldRef("v1", "spec.nodeName"), want: []wantErr{notSupported("spec.containers[0].transferEnv[0].sourceContainerNameFrom.fieldRef.fieldPath")}},
		{rule: f + "validateObjectFieldSelector: transferEnv fieldRef label key a qualified name",
			mut: fieldRef("v1", "metadata.labels['-bad-']"), want: []wantErr{invalid("spec.containers[0].transferEnv[0].sourceContainerNameFrom.fieldRef.fieldPath")}},
		{rule: f + "validateContainersForSidecarSet: the sidecars as a pod by kube's rules (image required)",
			mut: func(ss *apps.SidecarSet) { ss.Spec.Containers[0].Image = "" }, want: []wantErr{required("spec.containers[0].image")}},
		{rule: f + "validateContainersForSidecarSet: the sidecars as a pod by kube's rules (unique names)",
			mut: func(ss *apps.SidecarSet) {
				ss.Spec.InitContainers = []apps.SidecarContainer{sidecar("sidecar1", "busybox")}
			}, want: []wantErr{duplicate("spec.initContainers[0].name")}},
		{rule: f + "validateContainersForSidecarSet: the sidecars as a pod by kube's rules (mounts name a volume)",
			mut: func(ss *apps.SidecarSet) { ss.Spec.Volumes = nil }, want: []wantErr{notFound("spec.containers[0].volumeMounts[0].name")}},
		{rule: f + "validateSidecarSetSpec: patchPodMetadata annotations required",
			mut: patch(retain(nil)), want: []wantErr{required("spec.patchPodMetadata[0].annotations")}},
		{rule: f + "validateSidecarSetSpec: patchPodMetadata annotations by kube's rules",
			mut: patch(retain(map[string]string{"-bad-": "x"})), want: []wantErr{invalid("spec.patchPodMetadata[0].annotations")}},
		{rule: f + "validateSidecarSetSpec: patchPodMetadata patchPolicy required",
			mut:  patch(apps.SidecarSetPatchPodMetadata{Annotations: map[string]string{"a": "b"}}),
			want: []wantErr{notSupported("spec.patchPodMetadata[0].patchPolicy")}},
		{rule: f + "validateSidecarSetSpec: patchPodMetadata annotation keys unique",
			mut:  patch(retain(map[string]string{"a": "b"}), retain(map[string]string{"a": "c"})),
			want: []wantErr{duplicate("spec.patchPodMetadata[1].annotations[a]")}},
		{rule: f + "validateSidecarContainerConflict: a container's upgradeType is immutable", update: true,
			mut: func(ss *apps.SidecarSet) {
				ss.Spec.Containers[0].UpgradeStrategy.UpgradeType = apps.SidecarContainerHotUpgrade
			},
			want: []wantErr{forbidden("spec.containers[0].upgradeStrategy.upgradeType"), required("spec.containers[0].upgradeStrategy.hotUpgradeEmptyImage")}},
	})
}
