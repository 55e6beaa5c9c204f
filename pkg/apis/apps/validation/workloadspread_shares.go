package validation

import (
	"fmt"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// maxRescheduleWindowSeconds bounds an adaptive spread's whole round of reschedules: a
// pod that cannot be scheduled is moved on to the next subset after
// rescheduleCriticalSeconds, and the scheduler gives up on it after 300 s (5 s are kept
// for the controller's own lag), OpenKruise's bound.
const maxRescheduleWindowSeconds = 295

// validateSpreadShares checks how the subsets' maxReplicas divide the workload, as
// OpenKruise does: all of one type (a number or a percent); numbers only for a
// StatefulSet, whose pods are counted by ordinal; percents adding up to at most 100%,
// and to exactly 100% unless the last subset is left open for the rest; under the
// adaptive strategy, the last subset open (pods that fit nowhere else go there) and a
// reschedule delay that lets a pod try every subset within the scheduler's patience.
// Values that are no number or percent at all are reported by validateWorkloadSpreadSpec.
func validateSpreadShares(spec *apps.WorkloadSpreadSpec, fld *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	subsets := fld.Child("subsets")
	statefulSet := spec.TargetReference != nil && spec.TargetReference.Kind == "StatefulSet"
	var firstType *intstr.Type
	percentSum := 0
	for i := range spec.Subsets {
		m := spec.Subsets[i].MaxReplicas
		if m == nil {
			continue
		}
		p := subsets.Index(i).Child("maxReplicas")
		switch {
		case firstType == nil:
			firstType = &m.Type
		case m.Type != *firstType:
			allErrs = append(allErrs, field.Invalid(p, m.String(), "every subset's maxReplicas must be of one type: all numbers or all percents"))
			continue
		}
		if statefulSet && m.Type != intstr.Int {
			allErrs = append(allErrs, field.Invalid(p, m.String(), "must be a number for a StatefulSet"))
			continue
		}
		if m.Type == intstr.String {
			if n, ok := parsePercent(m.StrVal); ok && n >= 0 {
				percentSum += n
			}
		}
	}
	if firstType != nil && *firstType == intstr.String {
		last := spec.Subsets[len(spec.Subsets)-1].MaxReplicas
		switch {
		case percentSum > 100:
			allErrs = append(allErrs, field.Invalid(subsets, fmt.Sprintf("%d%%", percentSum), "the subsets' maxReplicas add up to more than 100%"))
		case percentSum < 100 && last != nil:
			allErrs = append(allErrs, field.Invalid(subsets, fmt.Sprintf("%d%%", percentSum),
				"percents must add up to 100%, or leave the last subset's maxReplicas unset to take the rest"))
		}
	}
	s := spec.ScheduleStrategy
	if s.Type == apps.AdaptiveWorkloadSpreadScheduleStrategyType && len(spec.Subsets) > 1 {
		if spec.Subsets[len(spec.Subsets)-1].MaxReplicas != nil {
			allErrs = append(allErrs, field.Invalid(subsets.Index(len(spec.Subsets)-1).Child("maxReplicas"),
				spec.Subsets[len(spec.Subsets)-1].MaxReplicas.String(), "must be unset under the Adaptive strategy: the last subset takes the pods no other subset can place"))
		}
		if s.Adaptive != nil && s.Adaptive.RescheduleCriticalSeconds != nil {
			bound := int32(maxRescheduleWindowSeconds / (len(spec.Subsets) - 1))
			// Values outside 0..3600 are reported by validateSpreadScheduleStrategy.
			if v := *s.Adaptive.RescheduleCriticalSeconds; v > bound && v <= 3600 {
				allErrs = append(allErrs, field.Invalid(fld.Child("scheduleStrategy", "adaptive", "rescheduleCriticalSeconds"), v,
					fmt.Sprintf("must be at most %d with %d subsets: a pod must be able to try each subset within %d s", bound, len(spec.Subsets), maxRescheduleWindowSeconds)))
			}
		}
	}
	return allErrs
}

// validateSpreadSharesUpdate applies validateSpreadShares to an update (ratchet).
func validateSpreadSharesUpdate(spec, old *apps.WorkloadSpreadSpec, fld *field.Path) field.ErrorList {
	kind := func(r *apps.TargetReference) string {
		if r == nil {
			return ""
		}
		return r.Kind
	}
	// Of the target only the kind counts (StatefulSets take numbers only).
	changed := !apiequality.Semantic.DeepEqual(spec.Subsets, old.Subsets) ||
		!apiequality.Semantic.DeepEqual(spec.ScheduleStrategy, old.ScheduleStrategy) ||
		kind(spec.TargetReference) != kind(old.TargetReference)
	return ratchet(validateSpreadShares(spec, fld), validateSpreadShares(old, fld), changed)
}

// validateSpreadTargetUpdate keeps the workload a spread targets (its group, kind and
// name; the version may change): the pods it placed carry its name, and the controller
// counts them against its subsets.
func validateSpreadTargetUpdate(ref, old *apps.TargetReference, fld *field.Path) field.ErrorList {
	if ref == nil || old == nil {
		return nil
	}
	gv, _ := schema.ParseGroupVersion(ref.APIVersion)
	oldGV, _ := schema.ParseGroupVersion(old.APIVersion)
	if gv.Group != oldGV.Group || ref.Kind != old.Kind || ref.Name != old.Name {
		return field.ErrorList{field.Invalid(fld, fmt.Sprintf("%s %s", ref.Kind, ref.Name),
			"the target's group, kind and name are immutable: the pods placed by this spread belong to the old one; create another WorkloadSpread")}
	}
	return nil
}
