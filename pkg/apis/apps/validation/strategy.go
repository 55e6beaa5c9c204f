package validation

import (
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// validatePriorityStrategy checks an update priority strategy: weight terms or order
// terms (not both), weights 1-100 with a non-empty valid selector, and order keys
// that are label keys.
func validatePriorityStrategy(s *pub.UpdatePriorityStrategy, fldPath *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	var allErrs field.ErrorList
	if len(s.WeightPriority) > 0 && len(s.OrderPriority) > 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath, "only one of weightPriority and orderPriority may be set"))
	}
	weightPath := fldPath.Child("weightPriority")
	for i, term := range s.WeightPriority {
		termPath := weightPath.Index(i)
		if term.Weight < 1 || term.Weight > 100 {
			allErrs = append(allErrs, field.Invalid(termPath.Child("weight"), term.Weight, "must be in the range 1-100"))
		}
		selectorPath := termPath.Child("matchSelector")
		if len(term.MatchSelector.MatchLabels)+len(term.MatchSelector.MatchExpressions) == 0 {
			allErrs = append(allErrs, field.Required(selectorPath, "a weight term must select some pods"))
		} else {
			allErrs = append(allErrs, metav1validation.ValidateLabelSelector(&term.MatchSelector,
				metav1validation.LabelSelectorValidationOptions{}, selectorPath)...)
		}
	}
	orderPath := fldPath.Child("orderPriority")
	for i, term := range s.OrderPriority {
		keyPath := orderPath.Index(i).Child("orderedKey")
		if term.OrderedKey == "" {
			allErrs = append(allErrs, field.Required(keyPath, ""))
		} else {
			allErrs = append(allErrs, metav1validation.ValidateLabelName(term.OrderedKey, keyPath)...)
		}
	}
	return allErrs
}

// validateScatterStrategy checks scatter terms: a label key and value each, no term twice.
func validateScatterStrategy(terms []pub.UpdateScatterTerm, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	seen := make(map[[2]string]bool, len(terms))
	for i, term := range terms {
		termPath := fldPath.Index(i)
		if term.Key == "" {
			allErrs = append(allErrs, field.Required(termPath.Child("key"), ""))
		}
		if term.Value == "" {
			allErrs = append(allErrs, field.Required(termPath.Child("value"), ""))
		}
		if term.Key == "" || term.Value == "" {
			continue
		}
		allErrs = append(allErrs, validateLabel(term.Key, term.Value, termPath)...)
		id := [2]string{term.Key, term.Value}
		if seen[id] {
			allErrs = append(allErrs, field.Duplicate(termPath, term.Key+"="+term.Value))
		}
		seen[id] = true
	}
	return allErrs
}

// validateInPlaceUpdateStrategy checks the tuning of in-place updates.
func validateInPlaceUpdateStrategy(s *pub.InPlaceUpdateStrategy, fldPath *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	allErrs := apimachineryvalidation.ValidateNonnegativeField(int64(s.GracePeriodSeconds), fldPath.Child("gracePeriodSeconds"))
	allErrs = append(allErrs, validateOptionalIntOrPercent(s.ImagePreDownloadParallelism, false, fldPath.Child("imagePreDownloadParallelism"))...)
	if s.ImagePreDownloadTimeoutSeconds != nil {
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(*s.ImagePreDownloadTimeoutSeconds),
			fldPath.Child("imagePreDownloadTimeoutSeconds"))...)
	}
	if s.ImagePreDownloadMinUpdatedReadyPods != nil {
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(*s.ImagePreDownloadMinUpdatedReadyPods),
			fldPath.Child("imagePreDownloadMinUpdatedReadyPods"))...)
	}
	return allErrs
}

// validateLifecycle checks lifecycle hooks: the labels a hook waits on must be valid
// pod labels, and its finalizers valid finalizer names.
func validateLifecycle(l *pub.Lifecycle, fldPath *field.Path) field.ErrorList {
	if l == nil {
		return nil
	}
	var allErrs field.ErrorList
	allErrs = append(allErrs, validateLifecycleHook(l.PreDelete, fldPath.Child("preDelete"))...)
	allErrs = append(allErrs, validateLifecycleHook(l.InPlaceUpdate, fldPath.Child("inPlaceUpdate"))...)
	allErrs = append(allErrs, validateLifecycleHook(l.PreNormal, fldPath.Child("preNormal"))...)
	return allErrs
}

func validateLifecycleHook(h *pub.LifecycleHook, fldPath *field.Path) field.ErrorList {
	if h == nil {
		return nil
	}
	allErrs := metav1validation.ValidateLabels(h.LabelsHandler, fldPath.Child("labelsHandler"))
	finalizersPath := fldPath.Child("finalizersHandler")
	for i, f := range h.FinalizersHandler {
		allErrs = append(allErrs, apimachineryvalidation.ValidateFinalizerName(f, finalizersPath.Index(i))...)
	}
	return allErrs
}

// validateNonnegativeOptional checks an optional int32 field is not negative.
func validateNonnegativeOptional(v *int32, fldPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	return apimachineryvalidation.ValidateNonnegativeField(int64(*v), fldPath)
}

// validateReplicas checks spec.replicas: set (defaulting sets it) and not negative.
func validateReplicas(replicas *int32, fldPath *field.Path) field.ErrorList {
	if replicas == nil {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return apimachineryvalidation.ValidateNonnegativeField(int64(*replicas), fldPath)
}

// validateLabel checks a label key (at fldPath.key) and value (at fldPath.value).
func validateLabel(key, value string, fldPath *field.Path) field.ErrorList {
	allErrs := metav1validation.ValidateLabelName(key, fldPath.Child("key"))
	for _, msg := range utilvalidation.IsValidLabelValue(value) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("value"), value, msg))
	}
	return allErrs
}
