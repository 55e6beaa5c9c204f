package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"
)

// SetDefaults_SidecarSet fills in OpenKruise's SidecarSet defaults: a RollingUpdate
// with maxUnavailable 1 and partition 0, ten revisions, sidecars injected before the
// app containers (init containers after the pod's own), cold upgrades, no volume
// sharing, Retain for patched metadata, and kube's container and volume defaults.
func SetDefaults_SidecarSet(obj *SidecarSet) {
	s := &obj.Spec.UpdateStrategy
	if s.Type == "" {
		s.Type = RollingUpdateSidecarSetStrategyType
	}
	if s.MaxUnavailable == nil {
		s.MaxUnavailable = ptr.To(intstr.FromInt32(1))
	}
	if s.Partition == nil {
		s.Partition = ptr.To(intstr.FromInt32(0))
	}
	if obj.Spec.RevisionHistoryLimit == nil {
		obj.Spec.RevisionHistoryLimit = ptr.To[int32](10)
	}
	setDefaultsSidecarContainers(obj.Spec.InitContainers, AfterAppContainerType)
	setDefaultsSidecarContainers(obj.Spec.Containers, BeforeAppContainerType)
	defaulting.Volumes(obj.Spec.Volumes)
	for i := range obj.Spec.PatchPodMetadata {
		if p := &obj.Spec.PatchPodMetadata[i]; p.PatchPolicy == "" {
			p.PatchPolicy = SidecarSetRetainPatchPolicy
		}
	}
	if r := obj.Spec.InjectionStrategy.Revision; r != nil && r.Policy == "" {
		r.Policy = AlwaysSidecarSetInjectRevisionPolicy
	}
}

func setDefaultsSidecarContainers(sidecars []SidecarContainer, position PodInjectPolicyType) {
	containers := make([]corev1.Container, len(sidecars))
	for i := range sidecars {
		sc := &sidecars[i]
		if sc.PodInjectPolicy == "" {
			sc.PodInjectPolicy = position
		}
		if sc.UpgradeStrategy.UpgradeType == "" {
			sc.UpgradeStrategy.UpgradeType = SidecarContainerColdUpgrade
		}
		if sc.ShareVolumePolicy.Type == "" {
			sc.ShareVolumePolicy.Type = ShareVolumePolicyDisabled
		}
		for j := range sc.TransferEnv {
			if from := sc.TransferEnv[j].SourceContainerNameFrom; from != nil {
				defaulting.FieldSelector(from.FieldRef)
			}
		}
		containers[i] = sc.Container
	}
	defaulting.Containers(containers)
	for i := range sidecars {
		sidecars[i].Container = containers[i]
	}
}
