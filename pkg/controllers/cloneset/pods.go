package cloneset

import (
	"maps"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/specifieddelete"
)

// newPod builds a pod of cs at a revision: named <cloneset>-<instance id>, labelled
// with the revision and instance id, owned by cs, with the readiness gates its update
// strategy and lifecycle need and a claim per volume claim template.
func newPod(cs *v1beta1.CloneSet, owner metav1.OwnerReference, tmpl *corev1.PodTemplateSpec, revision, instanceID string) *corev1.Pod {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:            cs.Name + "-" + instanceID,
			Namespace:       cs.Namespace,
			Labels:          maps.Clone(tmpl.Labels),
			Annotations:     maps.Clone(tmpl.Annotations),
			OwnerReferences: []metav1.OwnerReference{owner},
		},
		Spec: *tmpl.Spec.DeepCopy(),
	}
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[pub.ControllerRevisionHashLabelKey] = revision
	pod.Labels[pub.CloneSetInstanceIDKey] = instanceID
	if inPlace(cs) {
		inplaceupdate.InjectReadinessGate(pod)
	}
	lifecycle.SetInitialState(pod, cs.Spec.Lifecycle, metav1.Now())
	for _, claim := range cs.Spec.VolumeClaimTemplates {
		vol := corev1.Volume{Name: claim.Name, VolumeSource: corev1.VolumeSource{
			PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claimName(claim.Name, pod.Name)},
		}}
		replaced := false
		for i := range pod.Spec.Volumes {
			if pod.Spec.Volumes[i].Name == claim.Name {
				pod.Spec.Volumes[i] = vol
				replaced = true
			}
		}
		if !replaced {
			pod.Spec.Volumes = append(pod.Spec.Volumes, vol)
		}
	}
	return pod
}

// newClaim builds the PVC of one claim template for a pod.
func newClaim(cs *v1beta1.CloneSet, owner metav1.OwnerReference, tmpl corev1.PersistentVolumeClaim, podName, instanceID string) *corev1.PersistentVolumeClaim {
	claim := tmpl.DeepCopy()
	claim.ObjectMeta = metav1.ObjectMeta{
		Name:            claimName(tmpl.Name, podName),
		Namespace:       cs.Namespace,
		Labels:          maps.Clone(cs.Spec.Selector.MatchLabels),
		Annotations:     maps.Clone(tmpl.Annotations),
		OwnerReferences: []metav1.OwnerReference{owner},
	}
	if claim.Labels == nil {
		claim.Labels = map[string]string{}
	}
	claim.Labels[pub.CloneSetInstanceIDKey] = instanceID
	claim.Status = corev1.PersistentVolumeClaimStatus{}
	return claim
}

func claimName(template, podName string) string { return template + "-" + podName }

// isActive: the pod counts towards replicas (not terminating, not finished).
func isActive(pod *corev1.Pod) bool {
	return pod.DeletionTimestamp == nil && pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed
}

// isSpecifiedDelete: the user asked for this pod to go.
func isSpecifiedDelete(cs *v1beta1.CloneSet, pod *corev1.Pod) bool {
	if specifieddelete.Is(pod) {
		return true
	}
	for _, name := range cs.Spec.ScaleStrategy.PodsToDelete {
		if name == pod.Name {
			return true
		}
	}
	return false
}
