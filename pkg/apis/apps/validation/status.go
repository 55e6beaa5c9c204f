package validation

import (
	"fmt"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// counter is one replica count of a status, with the path it is reported at.
type counter struct {
	name  string
	value int32
}

// validateCounters checks that every count is not negative.
func validateCounters(counters []counter, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, c := range counters {
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(c.value), fldPath.Child(c.name))...)
	}
	return allErrs
}

// validateAtMost reports c at its path when it exceeds limit.
func validateAtMost(c, limit counter, fldPath *field.Path) field.ErrorList {
	if c.value <= limit.value {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath.Child(c.name), c.value,
		fmt.Sprintf("cannot be greater than status.%s", limit.name))}
}

// validateCollisionCountUpdate rejects a collision count that goes down or disappears.
func validateCollisionCountUpdate(count, old *int32, fldPath *field.Path) field.ErrorList {
	if old == nil || (count != nil && *count >= *old) {
		return nil
	}
	var value int32
	if count != nil {
		value = *count
	}
	return field.ErrorList{field.Invalid(fldPath, value, "cannot be decremented")}
}

// validateCloneSetStatus checks a CloneSet status as kube checks a Deployment's:
// counts are not negative, and subsets are not larger than the sets they belong to.
func validateCloneSetStatus(s *apps.CloneSetStatus, fldPath *field.Path) field.ErrorList {
	replicas := counter{"replicas", s.Replicas}
	ready := counter{"readyReplicas", s.ReadyReplicas}
	available := counter{"availableReplicas", s.AvailableReplicas}
	updated := counter{"updatedReplicas", s.UpdatedReplicas}
	updatedReady := counter{"updatedReadyReplicas", s.UpdatedReadyReplicas}
	updatedAvailable := counter{"updatedAvailableReplicas", s.UpdatedAvailableReplicas}
	expectedUpdated := counter{"expectedUpdatedReplicas", s.ExpectedUpdatedReplicas}

	allErrs := apimachineryvalidation.ValidateNonnegativeField(s.ObservedGeneration, fldPath.Child("observedGeneration"))
	allErrs = append(allErrs, validateCounters([]counter{
		replicas, ready, available, updated, updatedReady, updatedAvailable, expectedUpdated,
	}, fldPath)...)
	allErrs = append(allErrs, validateNonnegativeOptional(s.CollisionCount, fldPath.Child("collisionCount"))...)

	allErrs = append(allErrs, validateAtMost(ready, replicas, fldPath)...)
	allErrs = append(allErrs, validateAtMost(available, replicas, fldPath)...)
	allErrs = append(allErrs, validateAtMost(updated, replicas, fldPath)...)
	allErrs = append(allErrs, validateAtMost(available, ready, fldPath)...)
	allErrs = append(allErrs, validateAtMost(updatedReady, updated, fldPath)...)
	allErrs = append(allErrs, validateAtMost(updatedAvailable, updatedReady, fldPath)...)
	return allErrs
}

// validateStatefulSetStatus checks an Advanced StatefulSet status as kube checks a
// StatefulSet's, plus the updated-ready/available counts and volume claim counts.
func validateStatefulSetStatus(s *apps.StatefulSetStatus, fldPath *field.Path) field.ErrorList {
	replicas := counter{"replicas", s.Replicas}
	ready := counter{"readyReplicas", s.ReadyReplicas}
	available := counter{"availableReplicas", s.AvailableReplicas}
	current := counter{"currentReplicas", s.CurrentReplicas}
	updated := counter{"updatedReplicas", s.UpdatedReplicas}
	updatedReady := counter{"updatedReadyReplicas", s.UpdatedReadyReplicas}
	updatedAvailable := counter{"updatedAvailableReplicas", s.UpdatedAvailableReplicas}

	allErrs := apimachineryvalidation.ValidateNonnegativeField(s.ObservedGeneration, fldPath.Child("observedGeneration"))
	allErrs = append(allErrs, validateCounters([]counter{
		replicas, ready, available, current, updated, updatedReady, updatedAvailable,
	}, fldPath)...)
	allErrs = append(allErrs, validateNonnegativeOptional(s.CollisionCount, fldPath.Child("collisionCount"))...)

	allErrs = append(allErrs, validateAtMost(ready, replicas, fldPath)...)
	allErrs = append(allErrs, validateAtMost(current, replicas, fldPath)...)
	allErrs = append(allErrs, validateAtMost(updated, replicas, fldPath)...)
	allErrs = append(allErrs, validateAtMost(available, replicas, fldPath)...)
	allErrs = append(allErrs, validateAtMost(available, ready, fldPath)...)
	allErrs = append(allErrs, validateAtMost(updatedReady, updated, fldPath)...)
	allErrs = append(allErrs, validateAtMost(updatedAvailable, updatedReady, fldPath)...)

	claimsPath := fldPath.Child("volumeClaims")
	for i, c := range s.VolumeClaims {
		allErrs = append(allErrs, validateCounters([]counter{
			{"compatibleReplicas", c.CompatibleReplicas},
			{"compatibleReadyReplicas", c.CompatibleReadyReplicas},
		}, claimsPath.Index(i))...)
	}
	return allErrs
}
