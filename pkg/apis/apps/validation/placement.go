package validation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/core"
	k8scorev1 "k8s.io/kubernetes/pkg/apis/core/v1"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
)

// The placement a kind adds to pods it does not own the template of (a UnitedDeployment
// or WorkloadSpread subset's node terms and tolerations) is checked with kube's own pod
// rules, on kube's internal types, so it is accepted exactly when the pod would be.
// The versioned values are converted first; the conversions are field copies that do
// not fail, but should one, the list is reported as an internal error at that index and
// not validated half-converted.

// validateNodeSelectorTerm checks one required node selector term as kube checks a
// term of a pod's required node affinity.
func validateNodeSelectorTerm(term *corev1.NodeSelectorTerm, fld *field.Path) field.ErrorList {
	var out core.NodeSelectorTerm
	if err := k8scorev1.Convert_v1_NodeSelectorTerm_To_core_NodeSelectorTerm(term, &out, nil); err != nil {
		return field.ErrorList{field.InternalError(fld, err)}
	}
	return corevalidation.ValidateNodeSelectorTerm(out, false, fld)
}

// validatePreferredSchedulingTerms checks weighted terms as kube checks a pod's
// preferred node affinity (weights 1 to 100, each term well formed).
func validatePreferredSchedulingTerms(terms []corev1.PreferredSchedulingTerm, fld *field.Path) field.ErrorList {
	if len(terms) == 0 {
		return nil
	}
	out := make([]core.PreferredSchedulingTerm, len(terms))
	for i := range terms {
		if err := k8scorev1.Convert_v1_PreferredSchedulingTerm_To_core_PreferredSchedulingTerm(&terms[i], &out[i], nil); err != nil {
			return field.ErrorList{field.InternalError(fld.Index(i), err)}
		}
	}
	return corevalidation.ValidatePreferredSchedulingTerms(out, fld)
}

// validateTolerations checks tolerations as kube checks a pod's.
func validateTolerations(tolerations []corev1.Toleration, fld *field.Path) field.ErrorList {
	if len(tolerations) == 0 {
		return nil
	}
	out := make([]core.Toleration, len(tolerations))
	for i := range tolerations {
		if err := k8scorev1.Convert_v1_Toleration_To_core_Toleration(&tolerations[i], &out[i], nil); err != nil {
			return field.ErrorList{field.InternalError(fld.Index(i), err)}
		}
	}
	return corevalidation.ValidateTolerations(out, fld, corevalidation.PodValidationOptions{})
}
