// Package podutil finds a pod's containers and their statuses by name, for every
// component that reads pods (controllers, admission, node daemon).
package podutil

import corev1 "k8s.io/api/core/v1"

// Container returns the pod's (app) container called name, or nil.
func Container(pod *corev1.Pod, name string) *corev1.Container {
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == name {
			return &pod.Spec.Containers[i]
		}
	}
	return nil
}

// ContainerStatus returns the status of the pod's container called name, or nil.
func ContainerStatus(pod *corev1.Pod, name string) *corev1.ContainerStatus {
	for i := range pod.Status.ContainerStatuses {
		if pod.Status.ContainerStatuses[i].Name == name {
			return &pod.Status.ContainerStatuses[i]
		}
	}
	return nil
}
