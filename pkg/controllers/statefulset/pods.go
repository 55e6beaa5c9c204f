package statefulset

import (
	"maps"
	"slices"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
)

// newPod builds the set's pod at ordinal from a revision's template, with the
// identity kube's StatefulSet controller gives it: name <set>-<ordinal>, hostname =
// name, subdomain = serviceName, the pod-name and pod-index labels, one volume per
// claim template pointing at <claim>-<set>-<ordinal>; plus the revision label, the
// lifecycle state and the readiness gate the lifecycle hooks need.
func newPod(set *v1beta1.StatefulSet, tmpl *corev1.PodTemplateSpec, revision string, ordinal int, now metav1.Time) *corev1.Pod {
	name := PodName(set.Name, ordinal)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:            name,
			GenerateName:    set.Name + "-", // kube's pods carry it too (ignored once a name is set)
			Namespace:       set.Namespace,
			Labels:          maps.Clone(tmpl.Labels),
			Annotations:     maps.Clone(tmpl.Annotations),
			Finalizers:      slices.Clone(tmpl.Finalizers),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(set, controllerKind)},
		},
		Spec: *tmpl.Spec.DeepCopy(),
	}
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[pub.ControllerRevisionHashLabelKey] = revision
	pod.Labels[appsv1.StatefulSetPodNameLabel] = name
	pod.Labels[appsv1.PodIndexLabel] = strconv.Itoa(ordinal)
	pod.Spec.Hostname = name
	pod.Spec.Subdomain = set.Spec.ServiceName
	setClaimVolumes(set, pod, ordinal)
	if p := podUpdatePolicy(set); p == v1beta1.InPlaceIfPossiblePodUpdateStrategyType || p == v1beta1.InPlaceOnlyPodUpdateStrategyType {
		// Validation already asks the template for the gate; a set stored before that
		// rule still gets it, as every pod that may be updated in place does.
		inplaceupdate.InjectReadinessGate(pod)
	}
	lifecycle.SetInitialState(pod, set.Spec.Lifecycle, now)
	return pod
}

// setClaimVolumes points the volume of every claim template at the pod's claim,
// replacing a template volume of the same name.
func setClaimVolumes(set *v1beta1.StatefulSet, pod *corev1.Pod, ordinal int) {
	for _, tmpl := range set.Spec.VolumeClaimTemplates {
		vol := corev1.Volume{Name: tmpl.Name, VolumeSource: corev1.VolumeSource{
			PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claimName(set, tmpl.Name, ordinal)},
		}}
		i := slices.IndexFunc(pod.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == tmpl.Name })
		if i >= 0 {
			pod.Spec.Volumes[i] = vol
		} else {
			pod.Spec.Volumes = append(pod.Spec.Volumes, vol)
		}
	}
}

// claimName is the name of the claim of template for the pod at ordinal, as kube
// names it: <template>-<set>-<ordinal>.
func claimName(set *v1beta1.StatefulSet, template string, ordinal int) string {
	return template + "-" + set.Name + "-" + strconv.Itoa(ordinal)
}
