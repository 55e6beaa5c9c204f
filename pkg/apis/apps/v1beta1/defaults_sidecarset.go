package v1beta1

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"
)

// SetDefaults_SidecarSet fills in the SidecarSet defaults markers cannot say: sidecars
// are injected before the app containers but init containers after the pod's own (one
// type, two defaults), and kube's container, volume and field-reference defaults. The
// RollingUpdate strategy (maxUnavailable 1, partition 0), ten revisions, cold upgrades,
// no volume sharing, Retain for patched metadata and Always for a pinned revision are
// markers.
func SetDefaults_SidecarSet(obj *SidecarSet) {
	setDefaultsSidecarContainers(obj.Spec.InitContainers, AfterAppContainerType)
	setDefaultsSidecarContainers(obj.Spec.Containers, BeforeAppContainerType)
	defaulting.Volumes(obj.Spec.Volumes)
}

func setDefaultsSidecarContainers(sidecars []SidecarContainer, position PodInjectPolicyType) {
	containers := make([]corev1.Container, len(sidecars))
	for i := range sidecars {
		sc := &sidecars[i]
		if sc.PodInjectPolicy == "" {
			sc.PodInjectPolicy = position
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
