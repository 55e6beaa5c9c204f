package validation

import (
	"errors"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

const daemonSetKind = "DaemonSet"

var supportedDaemonSetUpdateTypes = []apps.DaemonSetUpdateStrategyType{
	apps.RollingUpdateDaemonSetStrategyType,
	apps.OnDeleteDaemonSetStrategyType,
}

// Surging is accepted for manifests written before it became an alias of Standard;
// defaulting stores it as Standard.
var supportedRollingUpdateTypes = []apps.RollingUpdateType{
	apps.StandardRollingUpdateType,
	apps.InplaceRollingUpdateType,
	apps.DeprecatedSurgingRollingUpdateType,
}

// ValidateDaemonSet validates a new Advanced DaemonSet.
func ValidateDaemonSet(ds *apps.DaemonSet) field.ErrorList {
	if ds == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil DaemonSet"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&ds.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateWorkloadName(ds.Name, field.NewPath("metadata", "name"))...)
	allErrs = append(allErrs, validateDaemonSetSpec(&ds.Spec, nil, field.NewPath("spec"))...)
	return allErrs
}

// ValidateDaemonSetUpdate validates an update of an Advanced DaemonSet: the new object
// must be valid and the selector may not change (as for kube's DaemonSet: pods
// selected before would be orphaned).
func ValidateDaemonSetUpdate(ds, old *apps.DaemonSet) field.ErrorList {
	if ds == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil DaemonSet"))}
	}
	specPath := field.NewPath("spec")
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ds.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateDaemonSetSpec(&ds.Spec, &old.Spec, specPath)...)
	allErrs = append(allErrs, apimachineryvalidation.ValidateImmutableField(ds.Spec.Selector, old.Spec.Selector, specPath.Child("selector"))...)
	return allErrs
}

// ValidateDaemonSetStatusUpdate validates an update of an Advanced DaemonSet's status
// as kube validates a DaemonSet's: no negative counts, no decremented collision count.
func ValidateDaemonSetStatusUpdate(ds, old *apps.DaemonSet) field.ErrorList {
	if ds == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil DaemonSet"))}
	}
	statusPath := field.NewPath("status")
	s := &ds.Status
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ds.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(s.ObservedGeneration, statusPath.Child("observedGeneration"))...)
	allErrs = append(allErrs, validateCounters([]counter{
		{"currentNumberScheduled", s.CurrentNumberScheduled},
		{"numberMisscheduled", s.NumberMisscheduled},
		{"desiredNumberScheduled", s.DesiredNumberScheduled},
		{"numberReady", s.NumberReady},
		{"updatedNumberScheduled", s.UpdatedNumberScheduled},
		{"numberAvailable", s.NumberAvailable},
		{"numberUnavailable", s.NumberUnavailable},
	}, statusPath)...)
	allErrs = append(allErrs, validateNonnegativeOptional(s.CollisionCount, statusPath.Child("collisionCount"))...)
	allErrs = append(allErrs, validateCollisionCountUpdate(s.CollisionCount, old.Status.CollisionCount,
		statusPath.Child("collisionCount"))...)
	return allErrs
}

// ValidateDaemonSetRollback validates the body of a DaemonSet rollback request.
func ValidateDaemonSetRollback(r *apps.DaemonSetRollback) field.ErrorList {
	if r == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil DaemonSetRollback"))}
	}
	return validateRollback(r.Name, r.ToRevision, apimachineryvalidation.NameIsDNSSubdomain)
}

// validateDaemonSetSpec checks a DaemonSet spec; oldSpec is the stored spec on update.
func validateDaemonSetSpec(spec, oldSpec *apps.DaemonSetSpec, fldPath *field.Path) field.ErrorList {
	w := workloadTemplate{kind: daemonSetKind, selector: spec.Selector, template: &spec.Template}
	if oldSpec != nil {
		w.oldTemplate = &oldSpec.Template
	}
	allErrs := validateSelectorAndTemplate(w, fldPath)
	allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(spec.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	allErrs = append(allErrs, validateNonnegativeOptional(spec.RevisionHistoryLimit, fldPath.Child("revisionHistoryLimit"))...)
	// A percentage of burstReplicas counts desired pods; above 100% it is merely no limit.
	allErrs = append(allErrs, validateOptionalIntOrPercent(spec.BurstReplicas, false, fldPath.Child("burstReplicas"))...)
	allErrs = append(allErrs, validateDaemonSetUpdateStrategy(&spec.UpdateStrategy, fldPath.Child("updateStrategy"))...)
	allErrs = append(allErrs, validateLifecycle(spec.Lifecycle, fldPath.Child("lifecycle"))...)
	return allErrs
}

// validateDaemonSetUpdateStrategy checks the strategy type and, for RollingUpdate,
// its parameters.
func validateDaemonSetUpdateStrategy(s *apps.DaemonSetUpdateStrategy, fldPath *field.Path) field.ErrorList {
	switch s.Type {
	case apps.OnDeleteDaemonSetStrategyType:
		return nil
	case apps.RollingUpdateDaemonSetStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{field.Required(fldPath.Child("rollingUpdate"), "")}
		}
		return validateRollingUpdateDaemonSet(s.RollingUpdate, fldPath.Child("rollingUpdate"))
	case "":
		return field.ErrorList{field.Required(fldPath.Child("type"), "")}
	default:
		return field.ErrorList{field.NotSupported(fldPath.Child("type"), s.Type, supportedDaemonSetUpdateTypes)}
	}
}

// validateRollingUpdateDaemonSet checks a rolling update: exactly one of maxUnavailable
// and maxSurge lets the rollout progress (a node either loses its pod for a while or
// runs two), in-place updates never surge, and the partition is not negative.
func validateRollingUpdateDaemonSet(ru *apps.RollingUpdateDaemonSet, fldPath *field.Path) field.ErrorList {
	maxUnavailablePath := fldPath.Child("maxUnavailable")
	maxSurgePath := fldPath.Child("maxSurge")
	allErrs := validateOptionalIntOrPercent(ru.MaxUnavailable, true, maxUnavailablePath)
	allErrs = append(allErrs, validateOptionalIntOrPercent(ru.MaxSurge, true, maxSurgePath)...)

	// An unset value counts as 0 (defaulting sets both only when both are unset).
	hasUnavailable := ru.MaxUnavailable != nil && isPositiveIntOrPercent(*ru.MaxUnavailable)
	hasSurge := ru.MaxSurge != nil && isPositiveIntOrPercent(*ru.MaxSurge)
	switch {
	case hasUnavailable && hasSurge:
		allErrs = append(allErrs, field.Invalid(maxSurgePath, ru.MaxSurge.String(), "may not be set when maxUnavailable is non-zero"))
	case !hasUnavailable && !hasSurge:
		allErrs = append(allErrs, field.Invalid(maxUnavailablePath, intOrPercentString(ru), "may not be 0 when maxSurge is 0"))
	}

	typePath := fldPath.Child("rollingUpdateType")
	switch ru.Type {
	case "", apps.StandardRollingUpdateType:
	case apps.InplaceRollingUpdateType:
		if hasSurge {
			allErrs = append(allErrs, field.Forbidden(maxSurgePath, "must be 0 when rollingUpdateType is InPlaceIfPossible: a pod updated in place has no second pod beside it"))
		}
	case apps.DeprecatedSurgingRollingUpdateType:
		if hasUnavailable {
			allErrs = append(allErrs, field.Forbidden(maxUnavailablePath, "must be 0 when rollingUpdateType is Surging"))
		}
	default:
		allErrs = append(allErrs, field.NotSupported(typePath, ru.Type, supportedRollingUpdateTypes))
	}

	// A partition above the desired pods is fine: it keeps every pod on the old revision.
	allErrs = append(allErrs, validateNonnegativeOptional(ru.Partition, fldPath.Child("partition"))...)
	if ru.Selector != nil {
		allErrs = append(allErrs, metav1validation.ValidateLabelSelector(ru.Selector,
			metav1validation.LabelSelectorValidationOptions{}, fldPath.Child("selector"))...)
	}
	return allErrs
}

// intOrPercentString is maxUnavailable as the user wrote it, "<nil>" when unset.
func intOrPercentString(ru *apps.RollingUpdateDaemonSet) string {
	if ru.MaxUnavailable == nil {
		return "<nil>"
	}
	return ru.MaxUnavailable.String()
}
