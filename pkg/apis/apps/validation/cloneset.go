package validation

import (
	"errors"
	"math"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

const cloneSetKind = "CloneSet"

// msgCloneSetImmutable names every CloneSet spec field an update may change.
const msgCloneSetImmutable = "updates to cloneset spec for fields other than 'replicas', 'template', " +
	"'volumeClaimTemplates', 'scaleStrategy', 'updateStrategy', 'revisionHistoryLimit', 'minReadySeconds', " +
	"'lifecycle' and 'progressDeadlineSeconds' are forbidden"

var supportedCloneSetUpdateTypes = []apps.CloneSetUpdateStrategyType{
	apps.RecreateCloneSetUpdateStrategyType,
	apps.InPlaceIfPossibleCloneSetUpdateStrategyType,
	apps.InPlaceOnlyCloneSetUpdateStrategyType,
	apps.OnDeleteCloneSetUpdateStrategyType,
}

// ValidateCloneSet validates a new CloneSet.
func ValidateCloneSet(cs *apps.CloneSet) field.ErrorList {
	if cs == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil CloneSet"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&cs.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateWorkloadName(cs.Name, field.NewPath("metadata", "name"))...)
	allErrs = append(allErrs, validateCloneSetSpec(&cs.Spec, nil, field.NewPath("spec"))...)
	return allErrs
}

// ValidateCloneSetUpdate validates an update of a CloneSet: the new object must be
// valid, the selector may not change, and with InPlaceOnly only images may change in
// the pod template.
func ValidateCloneSetUpdate(cs, old *apps.CloneSet) field.ErrorList {
	if cs == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil CloneSet"))}
	}
	specPath := field.NewPath("spec")
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&cs.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateCloneSetSpec(&cs.Spec, &old.Spec, specPath)...)
	allErrs = append(allErrs, validateCloneSetSpecUpdate(&cs.Spec, &old.Spec, specPath)...)
	return allErrs
}

// ValidateCloneSetStatusUpdate validates an update of a CloneSet's status.
func ValidateCloneSetStatusUpdate(cs, old *apps.CloneSet) field.ErrorList {
	if cs == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil CloneSet"))}
	}
	statusPath := field.NewPath("status")
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&cs.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateCloneSetStatus(&cs.Status, statusPath)...)
	allErrs = append(allErrs, validateCollisionCountUpdate(cs.Status.CollisionCount, old.Status.CollisionCount,
		statusPath.Child("collisionCount"))...)
	return allErrs
}

// ValidateCloneSetRollback validates the body of a CloneSet rollback request.
func ValidateCloneSetRollback(r *apps.CloneSetRollback) field.ErrorList {
	if r == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil CloneSetRollback"))}
	}
	return validateRollback(r.Name, r.ToRevision, apimachineryvalidation.NameIsDNSSubdomain)
}

// validateCloneSetSpec checks a CloneSet spec; oldSpec is the stored spec on update.
func validateCloneSetSpec(spec, oldSpec *apps.CloneSetSpec, fldPath *field.Path) field.ErrorList {
	allErrs := validateReplicas(spec.Replicas, fldPath.Child("replicas"))

	w := workloadTemplate{
		kind:     cloneSetKind,
		selector: spec.Selector,
		template: &spec.Template,
		claims:   spec.VolumeClaimTemplates,
	}
	if oldSpec != nil {
		w.oldTemplate = &oldSpec.Template
	}
	allErrs = append(allErrs, validateSelectorAndTemplate(w, fldPath)...)
	if oldSpec == nil || claimTemplatesChanged(spec.VolumeClaimTemplates, oldSpec.VolumeClaimTemplates) {
		allErrs = append(allErrs, validateVolumeClaimTemplates(spec.VolumeClaimTemplates, fldPath.Child("volumeClaimTemplates"))...)
	}

	allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(spec.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	allErrs = append(allErrs, validateNonnegativeOptional(spec.RevisionHistoryLimit, fldPath.Child("revisionHistoryLimit"))...)
	if d := spec.ProgressDeadlineSeconds; d != nil {
		deadlinePath := fldPath.Child("progressDeadlineSeconds")
		if *d < 0 {
			allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(*d), deadlinePath)...)
		} else if *d != math.MaxInt32 && *d <= spec.MinReadySeconds {
			// MaxInt32 means no deadline (as for a Deployment): valid with any minReadySeconds.
			allErrs = append(allErrs, field.Invalid(deadlinePath, *d, "must be greater than minReadySeconds"))
		}
	}

	allErrs = append(allErrs, validateCloneSetScaleStrategy(&spec.ScaleStrategy, fldPath.Child("scaleStrategy"))...)
	allErrs = append(allErrs, validateCloneSetUpdateStrategy(&spec.UpdateStrategy, fldPath.Child("updateStrategy"))...)
	allErrs = append(allErrs, validateLifecycle(spec.Lifecycle, fldPath.Child("lifecycle"))...)
	return allErrs
}

// validateCloneSetScaleStrategy checks podsToDelete (named pods, each once) and the
// scaling limit.
func validateCloneSetScaleStrategy(s *apps.CloneSetScaleStrategy, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	podsPath := fldPath.Child("podsToDelete")
	seen := make(map[string]bool, len(s.PodsToDelete))
	for i, name := range s.PodsToDelete {
		switch {
		case name == "":
			allErrs = append(allErrs, field.Required(podsPath.Index(i), "a pod name"))
		case seen[name]:
			allErrs = append(allErrs, field.Duplicate(podsPath.Index(i), name))
		default:
			seen[name] = true
		}
	}
	allErrs = append(allErrs, validateOptionalIntOrPercent(s.MaxUnavailable, true, fldPath.Child("maxUnavailable"))...)
	return allErrs
}

// validateCloneSetUpdateStrategy checks the rollout parameters of a CloneSet.
func validateCloneSetUpdateStrategy(s *apps.CloneSetUpdateStrategy, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	typePath := fldPath.Child("type")
	switch s.Type {
	case "":
		allErrs = append(allErrs, field.Required(typePath, ""))
	case apps.RecreateCloneSetUpdateStrategyType, apps.InPlaceIfPossibleCloneSetUpdateStrategyType,
		apps.InPlaceOnlyCloneSetUpdateStrategyType, apps.OnDeleteCloneSetUpdateStrategyType:
	default:
		allErrs = append(allErrs, field.NotSupported(typePath, s.Type, supportedCloneSetUpdateTypes))
	}

	// A partition above replicas is fine: it keeps every pod on the old revision.
	allErrs = append(allErrs, validateOptionalIntOrPercent(s.Partition, true, fldPath.Child("partition"))...)

	maxUnavailablePath := fldPath.Child("maxUnavailable")
	maxSurgePath := fldPath.Child("maxSurge")
	allErrs = append(allErrs, validateOptionalIntOrPercent(s.MaxUnavailable, true, maxUnavailablePath)...)
	allErrs = append(allErrs, validateOptionalIntOrPercent(s.MaxSurge, false, maxSurgePath)...)
	// Percentages round up against replicas, so with any replicas a rollout can make
	// progress unless both are literally 0. An unset maxUnavailable means 20%.
	if s.MaxUnavailable != nil && isZeroIntOrPercent(*s.MaxUnavailable) &&
		(s.MaxSurge == nil || isZeroIntOrPercent(*s.MaxSurge)) {
		allErrs = append(allErrs, field.Invalid(maxUnavailablePath, s.MaxUnavailable.String(),
			"may not be 0 when maxSurge is 0"))
	}
	if s.Type == apps.InPlaceOnlyCloneSetUpdateStrategyType && s.MaxSurge != nil && isPositiveIntOrPercent(*s.MaxSurge) {
		allErrs = append(allErrs, field.Forbidden(maxSurgePath, "must be 0 when type is InPlaceOnly: pods are never recreated"))
	}

	allErrs = append(allErrs, validatePriorityStrategy(s.PriorityStrategy, fldPath.Child("priorityStrategy"))...)
	allErrs = append(allErrs, validateScatterStrategy(s.ScatterStrategy, fldPath.Child("scatterStrategy"))...)
	allErrs = append(allErrs, validateInPlaceUpdateStrategy(s.InPlaceUpdateStrategy, fldPath.Child("inPlaceUpdateStrategy"))...)
	return allErrs
}

// validateCloneSetSpecUpdate checks what an update may change: everything but the
// selector, and with InPlaceOnly nothing in the pod spec but images.
func validateCloneSetSpecUpdate(spec, oldSpec *apps.CloneSetSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if !apiequality.Semantic.DeepEqual(spec.Selector, oldSpec.Selector) {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("selector"), msgCloneSetImmutable))
	}

	// Catch fields added to the spec later that nobody declared mutable.
	rest := spec.DeepCopy()
	rest.Replicas = oldSpec.Replicas
	rest.Template = oldSpec.Template
	rest.VolumeClaimTemplates = oldSpec.VolumeClaimTemplates
	rest.ScaleStrategy = oldSpec.ScaleStrategy
	rest.UpdateStrategy = oldSpec.UpdateStrategy
	rest.RevisionHistoryLimit = oldSpec.RevisionHistoryLimit
	rest.MinReadySeconds = oldSpec.MinReadySeconds
	rest.Lifecycle = oldSpec.Lifecycle
	rest.ProgressDeadlineSeconds = oldSpec.ProgressDeadlineSeconds
	rest.Selector = oldSpec.Selector
	if !apiequality.Semantic.DeepEqual(*rest, *oldSpec) {
		allErrs = append(allErrs, field.Forbidden(fldPath, msgCloneSetImmutable))
	}

	if spec.UpdateStrategy.Type == apps.InPlaceOnlyCloneSetUpdateStrategyType {
		allErrs = append(allErrs, validateInPlaceOnlyTemplateUpdate(&spec.Template, &oldSpec.Template, fldPath.Child("template"))...)
	}
	return allErrs
}
