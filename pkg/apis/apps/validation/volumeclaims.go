package validation

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/core"
	k8scorev1 "k8s.io/kubernetes/pkg/apis/core/v1"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// validateVolumeClaimTemplates checks claim templates the way kube's StatefulSet
// does (each spec is a valid claim spec), plus names: every claim becomes a pod
// volume, so its name must be a unique DNS label.
func validateVolumeClaimTemplates(claims []corev1.PersistentVolumeClaim, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	seen := make(map[string]bool, len(claims))
	opts := corevalidation.ValidationOptionsForPersistentVolumeClaimCreate()
	for i := range claims {
		idxPath := fldPath.Index(i)
		namePath := idxPath.Child("metadata", "name")
		switch name := claims[i].Name; {
		case name == "":
			allErrs = append(allErrs, field.Required(namePath, ""))
		case seen[name]:
			allErrs = append(allErrs, field.Duplicate(namePath, name))
		default:
			seen[name] = true
			allErrs = append(allErrs, corevalidation.ValidateDNS1123Label(name, namePath)...)
		}

		coreClaim := &core.PersistentVolumeClaim{}
		if err := k8scorev1.Convert_v1_PersistentVolumeClaim_To_core_PersistentVolumeClaim(claims[i].DeepCopy(), coreClaim, nil); err != nil {
			allErrs = append(allErrs, field.InternalError(idxPath, fmt.Errorf("converting the claim template: %w", err)))
			continue
		}
		allErrs = append(allErrs, corevalidation.ValidatePersistentVolumeClaimSpec(&coreClaim.Spec, idxPath.Child("spec"), opts)...)
	}
	return allErrs
}

// claimTemplatesChanged reports whether an update touched the claim templates; kube
// does not revalidate templates that were already stored.
func claimTemplatesChanged(claims []corev1.PersistentVolumeClaim, old []corev1.PersistentVolumeClaim) bool {
	return !apiequality.Semantic.DeepEqual(claims, old)
}

const msgResizeOnly = "with volumeClaimUpdateStrategy OnPodRollingUpdate claim templates may not be added, " +
	"removed or renamed, and only their storage requests and limits may change"

// validateClaimTemplatesResizeOnly is OpenKruise's rule for claim templates whose
// changes roll out to existing claims (volumeClaimUpdateStrategy OnPodRollingUpdate):
// the set of templates is fixed and only storage sizes may change. Whether the
// storage class allows expansion is checked where claims are resized.
func validateClaimTemplatesResizeOnly(spec, oldSpec *apps.StatefulSetSpec, fldPath *field.Path) field.ErrorList {
	if !claimTemplatesChanged(spec.VolumeClaimTemplates, oldSpec.VolumeClaimTemplates) {
		return nil
	}
	if len(spec.VolumeClaimTemplates) != len(oldSpec.VolumeClaimTemplates) {
		return field.ErrorList{field.Forbidden(fldPath, msgResizeOnly)}
	}
	oldByName := make(map[string]*corev1.PersistentVolumeClaim, len(oldSpec.VolumeClaimTemplates))
	for i := range oldSpec.VolumeClaimTemplates {
		oldByName[oldSpec.VolumeClaimTemplates[i].Name] = &oldSpec.VolumeClaimTemplates[i]
	}
	var allErrs field.ErrorList
	for i := range spec.VolumeClaimTemplates {
		claim := &spec.VolumeClaimTemplates[i]
		old, ok := oldByName[claim.Name]
		if !ok {
			allErrs = append(allErrs, field.Forbidden(fldPath.Index(i).Child("metadata", "name"), msgResizeOnly))
			continue
		}
		masked := claim.DeepCopy()
		setStorage(&masked.Spec.Resources.Requests, old.Spec.Resources.Requests)
		setStorage(&masked.Spec.Resources.Limits, old.Spec.Resources.Limits)
		if !apiequality.Semantic.DeepEqual(masked, old) {
			allErrs = append(allErrs, field.Forbidden(fldPath.Index(i), msgResizeOnly))
		}
	}
	return allErrs
}

// setStorage makes the storage entry of *list what it is in from (present or absent).
func setStorage(list *corev1.ResourceList, from corev1.ResourceList) {
	q, ok := from[corev1.ResourceStorage]
	if !ok {
		delete(*list, corev1.ResourceStorage)
		if len(*list) == 0 && from == nil {
			*list = nil
		}
		return
	}
	if *list == nil {
		*list = corev1.ResourceList{}
	}
	(*list)[corev1.ResourceStorage] = q
}
