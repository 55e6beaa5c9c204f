// Package workload holds the strategy rules every Kruise resource with a spec and a
// status shares (workloads first, also jobs and node operations):
// generation bookkeeping, which fields each endpoint may write, and kube's warnings
// for embedded pod and claim templates.
package workload

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/api/pod"
	api "k8s.io/kubernetes/pkg/apis/core"
	k8scorev1 "k8s.io/kubernetes/pkg/apis/core/v1"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// resetSet is path, in every served version (group/version) of a resource: the fields
// server-side apply must leave to the other endpoint.
func resetSet(versions []fieldpath.APIVersion, path string) map[fieldpath.APIVersion]*fieldpath.Set {
	m := make(map[fieldpath.APIVersion]*fieldpath.Set, len(versions))
	for _, v := range versions {
		m[v] = fieldpath.NewSet(fieldpath.MakePathOrDie(path))
	}
	return m
}

// ResetStatus is what the main endpoint resets: status belongs to the controller.
func ResetStatus(versions []fieldpath.APIVersion) map[fieldpath.APIVersion]*fieldpath.Set {
	return resetSet(versions, "status")
}

// ResetSpec is what the status endpoint resets: spec belongs to the user.
func ResetSpec(versions []fieldpath.APIVersion) map[fieldpath.APIVersion]*fieldpath.Set {
	return resetSet(versions, "spec")
}

// internalTemplate is t in kube's internal types, for kube's template rules that only
// read it (the conversion shares memory with t); nil when t is nil or does not convert.
func internalTemplate(t *corev1.PodTemplateSpec) *api.PodTemplateSpec {
	if t == nil {
		return nil
	}
	var out api.PodTemplateSpec
	if err := k8scorev1.Convert_v1_PodTemplateSpec_To_core_PodTemplateSpec(t, &out, nil); err != nil {
		return nil
	}
	return &out
}

// TemplateWarnings returns the warnings kube gives for the same pod template in a
// Deployment (deprecated fields, odd values) and for each volume claim template.
func TemplateWarnings(ctx context.Context, tmpl, oldTmpl *corev1.PodTemplateSpec, claims []corev1.PersistentVolumeClaim) []string {
	internal := internalTemplate(tmpl)
	if tmpl != nil && internal == nil {
		return nil
	}
	warnings := pod.GetWarningsForPodTemplate(ctx, field.NewPath("spec", "template"), internal, internalTemplate(oldTmpl))
	for i := range claims {
		var spec api.PersistentVolumeClaimSpec
		if err := k8scorev1.Convert_v1_PersistentVolumeClaimSpec_To_core_PersistentVolumeClaimSpec(&claims[i].Spec, &spec, nil); err != nil {
			continue
		}
		warnings = append(warnings, persistentvolumeclaim.GetWarningsForPersistentVolumeClaimSpec(
			field.NewPath("spec", "volumeClaimTemplates").Index(i).Child("spec"), spec)...)
	}
	return warnings
}

// Strategy is what a workload's main endpoint needs from its strategy.
type Strategy interface {
	rest.RESTCreateUpdateStrategy
	rest.RESTDeleteStrategy
	rest.ResetFieldsStrategy
	rest.GarbageCollectionDeleteStrategy
}

// StatusStrategy is what a workload's status endpoint needs from its strategy.
type StatusStrategy interface {
	rest.RESTUpdateStrategy
	rest.ResetFieldsStrategy
}

// SelectorString is a workload's selector as the scale subresource and
// status.labelSelector report it.
func SelectorString(selector *metav1.LabelSelector) (string, error) {
	sel, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		return "", err
	}
	return sel.String(), nil
}
