package sidecarsetconflict

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// footprint is what a SidecarSet puts into the pods it selects, by the names those
// things have in a pod, and which pods those are. Both the request's hub object and
// the informer's v1beta1 objects reduce to it, so no conversion is needed to compare.
type footprint struct {
	name              string
	namespace         string
	namespaceSelector *metav1.LabelSelector
	selector          *metav1.LabelSelector
	// containers maps a pod container name to the sidecar that runs as it.
	containers map[string]string
	volumes    map[string]corev1.Volume
	// annotations maps a patched pod annotation to its patch policy.
	annotations map[string]string
}

type sidecarInfo struct {
	name        string
	upgradeType string
}

func newFootprint(name, namespace string, nsSelector, selector *metav1.LabelSelector,
	sidecars []sidecarInfo, volumes []corev1.Volume) footprint {
	f := footprint{
		name: name, namespace: namespace, namespaceSelector: nsSelector, selector: selector,
		containers:  map[string]string{},
		volumes:     map[string]corev1.Volume{},
		annotations: map[string]string{},
	}
	for _, s := range sidecars {
		for _, n := range podContainerNames(s.name, s.upgradeType) {
			f.containers[n] = s.name
		}
	}
	for _, v := range volumes {
		f.volumes[pub.PodVolumeName(v.Name)] = v
	}
	return f
}

// podContainerNames are the containers a sidecar runs as in a pod.
func podContainerNames(name, upgradeType string) []string {
	if upgradeType == string(apps.SidecarContainerHotUpgrade) {
		n := pub.HotUpgradeContainerNames(name)
		return n[:]
	}
	return []string{name}
}

func footprintOfHub(ss *apps.SidecarSet) footprint {
	var sidecars []sidecarInfo
	for _, list := range [][]apps.SidecarContainer{ss.Spec.InitContainers, ss.Spec.Containers} {
		for _, c := range list {
			sidecars = append(sidecars, sidecarInfo{c.Name, string(c.UpgradeStrategy.UpgradeType)})
		}
	}
	f := newFootprint(ss.Name, ss.Spec.Namespace, ss.Spec.NamespaceSelector, ss.Spec.Selector, sidecars, ss.Spec.Volumes)
	for _, p := range ss.Spec.PatchPodMetadata {
		for k := range p.Annotations {
			f.annotations[k] = string(p.PatchPolicy)
		}
	}
	return f
}

func footprintOfV1beta1(ss *v1beta1.SidecarSet) footprint {
	var sidecars []sidecarInfo
	for _, list := range [][]v1beta1.SidecarContainer{ss.Spec.InitContainers, ss.Spec.Containers} {
		for _, c := range list {
			sidecars = append(sidecars, sidecarInfo{c.Name, string(c.UpgradeStrategy.UpgradeType)})
		}
	}
	f := newFootprint(ss.Name, ss.Spec.Namespace, ss.Spec.NamespaceSelector, ss.Spec.Selector, sidecars, ss.Spec.Volumes)
	for _, p := range ss.Spec.PatchPodMetadata {
		for k := range p.Annotations {
			f.annotations[k] = string(p.PatchPolicy)
		}
	}
	return f
}
