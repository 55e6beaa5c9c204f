package validation

import (
	"errors"
	"strconv"
	"strings"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	appsvalidation "github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/apis/policy"
)

// SupportedTargets are the workloads a budget's targetRef may name: those whose
// replicas the controller reads.
var SupportedTargets = []schema.GroupKind{
	{Group: "apps.kruise.io", Kind: "CloneSet"},
	{Group: "apps.kruise.io", Kind: "StatefulSet"},
	{Group: "apps", Kind: "Deployment"},
	{Group: "apps", Kind: "ReplicaSet"},
	{Group: "apps", Kind: "StatefulSet"},
}

// ValidatePodUnavailableBudget validates a new budget: exactly one of selector and
// targetRef, exactly one of maxUnavailable and minAvailable, each well formed.
func ValidatePodUnavailableBudget(pub *policy.PodUnavailableBudget) field.ErrorList {
	if pub == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil PodUnavailableBudget"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&pub.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateAnnotations(pub.Annotations, field.NewPath("metadata", "annotations"))...)
	allErrs = append(allErrs, validateSelectorNotEmpty(pub.Spec.Selector, field.NewPath("spec", "selector"))...)
	return append(allErrs, validateSpec(&pub.Spec, field.NewPath("spec"))...)
}

// ValidatePodUnavailableBudgetUpdate validates an update. Every spec field may change:
// the controller recomputes the budget from the new spec on its next sync.
func ValidatePodUnavailableBudgetUpdate(pub, old *policy.PodUnavailableBudget) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&pub.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateAnnotations(pub.Annotations, field.NewPath("metadata", "annotations"))...)
	allErrs = append(allErrs, validateSelectorNotEmptyUpdate(pub.Spec.Selector, old.Spec.Selector, field.NewPath("spec", "selector"))...)
	return append(allErrs, validateSpec(&pub.Spec, field.NewPath("spec"))...)
}

// ValidatePodUnavailableBudgetStatusUpdate validates what the controller and the pod
// webhook write: no negative counts.
func ValidatePodUnavailableBudgetStatusUpdate(pub, old *policy.PodUnavailableBudget) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&pub.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	st, fld := &pub.Status, field.NewPath("status")
	for _, c := range []struct {
		name  string
		value int64
	}{
		{"observedGeneration", st.ObservedGeneration},
		{"unavailableAllowed", int64(st.UnavailableAllowed)},
		{"currentAvailable", int64(st.CurrentAvailable)},
		{"desiredAvailable", int64(st.DesiredAvailable)},
		{"totalReplicas", int64(st.TotalReplicas)},
	} {
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(c.value, fld.Child(c.name))...)
	}
	return allErrs
}

func validateSpec(spec *policy.PodUnavailableBudgetSpec, fld *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	switch {
	case spec.Selector != nil && spec.TargetReference != nil:
		allErrs = append(allErrs, field.Forbidden(fld.Child("targetRef"), "selector and targetRef are mutually exclusive"))
	case spec.Selector == nil && spec.TargetReference == nil:
		allErrs = append(allErrs, field.Required(fld.Child("selector"), "one of selector or targetRef is required"))
	case spec.Selector != nil:
		allErrs = append(allErrs, metav1validation.ValidateLabelSelector(spec.Selector,
			metav1validation.LabelSelectorValidationOptions{}, fld.Child("selector"))...)
	default:
		allErrs = append(allErrs, appsvalidation.ValidateTargetReference(spec.TargetReference.APIVersion, spec.TargetReference.Kind, spec.TargetReference.Name, SupportedTargets, fld.Child("targetRef"))...)
	}

	switch {
	case spec.MaxUnavailable != nil && spec.MinAvailable != nil:
		allErrs = append(allErrs, field.Forbidden(fld.Child("minAvailable"), "maxUnavailable and minAvailable are mutually exclusive"))
	case spec.MaxUnavailable == nil && spec.MinAvailable == nil:
		allErrs = append(allErrs, field.Required(fld.Child("maxUnavailable"), "one of maxUnavailable or minAvailable is required"))
	}
	allErrs = append(allErrs, appsvalidation.ValidateOptionalIntOrPercent(spec.MaxUnavailable, true, fld.Child("maxUnavailable"))...)
	allErrs = append(allErrs, appsvalidation.ValidateOptionalIntOrPercent(spec.MinAvailable, true, fld.Child("minAvailable"))...)

	for i, op := range spec.ProtectOperations {
		if !operations.Has(op) {
			allErrs = append(allErrs, field.NotSupported(fld.Child("protectOperations").Index(i), op, sets.List(operations)))
		}
	}
	if n := spec.ProtectTotalReplicas; n != nil {
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(*n), fld.Child("protectTotalReplicas"))...)
	}
	if spec.IgnoredPodSelector != nil {
		allErrs = append(allErrs, metav1validation.ValidateLabelSelector(spec.IgnoredPodSelector,
			metav1validation.LabelSelectorValidationOptions{}, fld.Child("ignoredPodSelector"))...)
	}
	return allErrs
}

var operations = sets.New(policy.PubOperations...)

// validateAnnotations checks the annotations that steer the budget: the protected
// operations and the replicas override.
func validateAnnotations(annotations map[string]string, fld *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if v, ok := annotations[policy.PubProtectOperationAnnotation]; ok {
		p := fld.Key(policy.PubProtectOperationAnnotation)
		for _, op := range strings.Split(v, ",") {
			if !operations.Has(policy.PubOperation(strings.TrimSpace(op))) {
				allErrs = append(allErrs, field.NotSupported(p, op, sets.List(operations)))
			}
		}
	}
	if v, ok := annotations[policy.PubProtectTotalReplicasAnnotation]; ok {
		if n, err := strconv.ParseInt(v, 10, 32); err != nil || n < 0 {
			allErrs = append(allErrs, field.Invalid(fld.Key(policy.PubProtectTotalReplicasAnnotation), v, "must be a non-negative integer"))
		}
	}
	return allErrs
}
