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

// Containers defaults containers in place as kube defaults those of a pod template:
// a SidecarSet's containers read back as they will run once injected.
func Containers(containers []corev1.Container) {
	if len(containers) == 0 {
		return
	}
	holder := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: containers}}
	PodTemplate(holder)
	copy(containers, holder.Spec.Containers)
}

// Volumes defaults volumes in place as kube defaults those of a pod template.
func Volumes(volumes []corev1.Volume) {
	if len(volumes) == 0 {
		return
	}
	holder := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Volumes: volumes}}
	PodTemplate(holder)
	copy(volumes, holder.Spec.Volumes)
}

// FieldSelector defaults a pod field reference as kube does (apiVersion v1).
func FieldSelector(f *corev1.ObjectFieldSelector) {
	if f != nil {
		k8scorev1.SetDefaults_ObjectFieldSelector(f)
	}
}
