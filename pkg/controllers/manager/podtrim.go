package manager

import (
	corev1 "k8s.io/api/core/v1"
)

// trimPod drops from a cached pod the parts of its spec that no controller here reads
// and that no update of the pod may remove: its volumes, its containers' volume mounts
// and devices and its pod-level security context, which never change once the pod
// exists, and its tolerations, to which an update may only add. A pod is most of
// kruise-controller's memory, and these are a fifth or more of each one (the
// service-account token volume alone is a projected volume of three sources, on every
// pod).
//
// Why a write can never lose them: controllers change pods by patches of what they
// changed and by status updates, and the pods/status strategy keeps the stored spec.
// A full update sent from a trimmed copy would be refused by kube-apiserver's pod
// update validation, not stored. Controllers building a pod build it from their
// template, never from a cached pod. Init and ephemeral containers keep their mounts:
// they are rare and small.
func trimPod(pod *corev1.Pod) {
	pod.Spec.Volumes = nil
	pod.Spec.Tolerations = nil
	pod.Spec.SecurityContext = nil
	for i := range pod.Spec.Containers {
		pod.Spec.Containers[i].VolumeMounts = nil
		pod.Spec.Containers[i].VolumeDevices = nil
	}
}
