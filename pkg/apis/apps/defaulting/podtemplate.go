// Package defaulting applies Kubernetes' own defaults to the pod and claim templates
// embedded in Kruise workloads, so a template reads back exactly as kube would store
// the same template in a Deployment or StatefulSet.
package defaulting

import (
	corev1 "k8s.io/api/core/v1"
	k8scorev1 "k8s.io/kubernetes/pkg/apis/core/v1"
)

// PodTemplate defaults a pod template in place with kube's generated pod defaulters.
func PodTemplate(t *corev1.PodTemplateSpec) {
	holder := &corev1.PodTemplate{Template: *t}
	k8scorev1.SetObjectDefaults_PodTemplate(holder)
	*t = holder.Template
}

// ClaimTemplates defaults each volume claim template in place.
func ClaimTemplates(claims []corev1.PersistentVolumeClaim) {
	for i := range claims {
		k8scorev1.SetObjectDefaults_PersistentVolumeClaim(&claims[i])
		// A template is never bound: kube would default status.phase to Pending on a real
		// claim, which is noise in a template and changes on every read otherwise.
		claims[i].Status = corev1.PersistentVolumeClaimStatus{}
	}
}
