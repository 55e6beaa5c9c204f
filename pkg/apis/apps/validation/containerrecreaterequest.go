package validation

import (
	"errors"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// MinCRRActiveDeadlineSeconds is the shortest deadline a request may have: below it a
// node daemon cannot be expected to act at all.
const MinCRRActiveDeadlineSeconds = 3

// Labels that tie a request to its pod and node; they never change once set.
var crrImmutableLabels = []string{
	"crr.apps.kruise.io/pod-name", "crr.apps.kruise.io/pod-uid", "crr.apps.kruise.io/node-name",
}

const crrUnreadyAcquiredKey = "crr.apps.kruise.io/unready-acquired"

var (
	supportedCRRFailurePolicies = []apps.ContainerRecreateRequestFailurePolicyType{
		apps.ContainerRecreateRequestFailurePolicyFail, apps.ContainerRecreateRequestFailurePolicyIgnore,
	}
	supportedCRRPhases = []apps.ContainerRecreateRequestPhase{
		apps.ContainerRecreateRequestPending, apps.ContainerRecreateRequestRecreating,
		apps.ContainerRecreateRequestSucceeded, apps.ContainerRecreateRequestFailed, apps.ContainerRecreateRequestCompleted,
	}
)

// ValidateContainerRecreateRequest validates a new request. That its pod exists and
// runs the named containers is checked by the admission plugin, which can see pods.
func ValidateContainerRecreateRequest(crr *apps.ContainerRecreateRequest) field.ErrorList {
	if crr == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil ContainerRecreateRequest"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&crr.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(allErrs, validateCRRSpec(&crr.Spec, field.NewPath("spec"))...)
}

func validateCRRSpec(spec *apps.ContainerRecreateRequestSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if spec.PodName == "" {
		allErrs = append(allErrs, field.Required(fldPath.Child("podName"), ""))
	} else {
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(spec.PodName, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("podName"), spec.PodName, msg))
		}
	}
	containers := fldPath.Child("containers")
	if len(spec.Containers) == 0 {
		allErrs = append(allErrs, field.Required(containers, "at least one container to recreate"))
	}
	seen := sets.New[string]()
	for i, c := range spec.Containers {
		p := containers.Index(i).Child("name")
		if c.Name == "" {
			allErrs = append(allErrs, field.Required(p, ""))
			continue
		}
		for _, msg := range validation.IsDNS1123Label(c.Name) {
			allErrs = append(allErrs, field.Invalid(p, c.Name, msg))
		}
		if seen.Has(c.Name) {
			allErrs = append(allErrs, field.Duplicate(p, c.Name))
		}
		seen.Insert(c.Name)
	}
	if d := spec.ActiveDeadlineSeconds; d != nil && *d < MinCRRActiveDeadlineSeconds {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("activeDeadlineSeconds"), *d,
			"must be at least 3 seconds"))
	}
	allErrs = append(allErrs, validateNonnegative32(spec.TTLSecondsAfterFinished, fldPath.Child("ttlSecondsAfterFinished"))...)
	if s := spec.Strategy; s != nil {
		p := fldPath.Child("strategy")
		if !phaseIn(s.FailurePolicy, supportedCRRFailurePolicies) {
			allErrs = append(allErrs, field.NotSupported(p.Child("failurePolicy"), s.FailurePolicy, supportedCRRFailurePolicies))
		}
		if v := s.TerminationGracePeriodSeconds; v != nil {
			allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(*v, p.Child("terminationGracePeriodSeconds"))...)
		}
		if v := s.UnreadyGracePeriodSeconds; v != nil {
			allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(*v, p.Child("unreadyGracePeriodSeconds"))...)
		}
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(s.MinStartedSeconds), p.Child("minStartedSeconds"))...)
	}
	return allErrs
}

// ValidateContainerRecreateRequestUpdate: a request is a one-shot order. Its spec is
// fixed, except the status context the node daemon records per container; the labels
// that tie it to a pod and node, and the unready mark once taken, never change.
func ValidateContainerRecreateRequestUpdate(crr, old *apps.ContainerRecreateRequest) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&crr.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateCRRMetadataUpdate(crr, old)...)
	spec, oldSpec := crr.Spec.DeepCopy(), old.Spec.DeepCopy()
	if len(spec.Containers) == len(oldSpec.Containers) {
		allErrs = append(allErrs, validateStatusContextUpdate(&crr.Spec, &old.Spec, field.NewPath("spec"))...)
		for i := range spec.Containers {
			spec.Containers[i].StatusContext = nil
			oldSpec.Containers[i].StatusContext = nil
		}
	}
	if !apiequality.Semantic.DeepEqual(spec, oldSpec) {
		allErrs = append(allErrs, field.Forbidden(field.NewPath("spec"),
			"a ContainerRecreateRequest's spec is immutable (except containers[*].statusContext): create a new request"))
	}
	return allErrs
}

// validateStatusContextUpdate: a container's status context is what the daemon stops,
// so once recorded it stays, except under forceRecreate, where the daemon records the
// container again when it restarted on its own before being stopped.
func validateStatusContextUpdate(spec, oldSpec *apps.ContainerRecreateRequestSpec, fldPath *field.Path) field.ErrorList {
	if oldSpec.Strategy != nil && oldSpec.Strategy.ForceRecreate {
		return nil
	}
	var allErrs field.ErrorList
	for i := range spec.Containers {
		was, now := oldSpec.Containers[i].StatusContext, spec.Containers[i].StatusContext
		if was != nil && !apiequality.Semantic.DeepEqual(was, now) {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("containers").Index(i).Child("statusContext"),
				"recorded once; only a request with strategy.forceRecreate records a container again"))
		}
	}
	return allErrs
}

func validateCRRMetadataUpdate(crr, old *apps.ContainerRecreateRequest) field.ErrorList {
	var allErrs field.ErrorList
	labels := field.NewPath("metadata", "labels")
	for _, k := range crrImmutableLabels {
		if v, was := old.Labels[k]; was && crr.Labels[k] != v {
			allErrs = append(allErrs, field.Forbidden(labels.Key(k), "is immutable"))
		}
	}
	if v := old.Annotations[crrUnreadyAcquiredKey]; v != "" && crr.Annotations[crrUnreadyAcquiredKey] != v {
		allErrs = append(allErrs, field.Forbidden(field.NewPath("metadata", "annotations").Key(crrUnreadyAcquiredKey), "is immutable once set"))
	}
	return allErrs
}

// ValidateContainerRecreateRequestStatusUpdate validates what the node daemon and the
// controller report.
func ValidateContainerRecreateRequestStatusUpdate(crr, old *apps.ContainerRecreateRequest) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&crr.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	p := field.NewPath("status")
	if ph := crr.Status.Phase; ph != "" && !phaseIn(ph, supportedCRRPhases) {
		allErrs = append(allErrs, field.NotSupported(p.Child("phase"), ph, supportedCRRPhases))
	}
	for i, s := range crr.Status.ContainerRecreateStates {
		if !phaseIn(s.Phase, supportedCRRPhases) {
			allErrs = append(allErrs, field.NotSupported(p.Child("containerRecreateStates").Index(i).Child("phase"), s.Phase, supportedCRRPhases))
		}
	}
	return allErrs
}
