package validation

import (
	"errors"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// ProbeNameSeparator joins a PodProbeMarker's name and a probe's name into the probe's
// name in a NodePodProbe ("<marker>#<probe>"), as OpenKruise does.
const ProbeNameSeparator = "#"

// reservedPodConditionTypes are conditions kubelet, kube's controllers or Kruise write:
// a probe writing one of them would fight its owner.
// They include every name reservedProbeNames refuses for a probe.
var reservedPodConditionTypes = reservedProbeNames.Union(sets.New(
	string(corev1.DisruptionTarget), string(corev1.PodReadyToStartContainers),
	string(corev1.PodResizePending), string(corev1.PodResizeInProgress),
))

var supportedMarkerStates = []apps.ProbeState{apps.ProbeSucceeded, apps.ProbeFailed}

// ValidatePodProbeMarker validates a new PodProbeMarker.
func ValidatePodProbeMarker(ppm *apps.PodProbeMarker) field.ErrorList {
	if ppm == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil PodProbeMarker"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&ppm.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateProbeNamesReserved(&ppm.Spec, nil, field.NewPath("spec"))...)
	return append(allErrs, validatePodProbeMarkerSpec(&ppm.Spec, field.NewPath("spec"))...)
}

// ValidatePodProbeMarkerUpdate validates an update; the selector is immutable (as
// OpenKruise documents): pods once marked are not to be left with stale marks.
func ValidatePodProbeMarkerUpdate(ppm, old *apps.PodProbeMarker) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ppm.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validatePodProbeMarkerSpec(&ppm.Spec, field.NewPath("spec"))...)
	allErrs = append(allErrs, validateProbeNamesReserved(&ppm.Spec, &old.Spec, field.NewPath("spec"))...)
	if !apiequality.Semantic.DeepEqual(ppm.Spec.Selector, old.Spec.Selector) {
		allErrs = append(allErrs, field.Invalid(field.NewPath("spec", "selector"), ppm.Spec.Selector, "field is immutable"))
	}
	return allErrs
}

// ValidatePodProbeMarkerStatusUpdate validates a status write.
func ValidatePodProbeMarkerStatusUpdate(ppm, old *apps.PodProbeMarker) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ppm.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	p := field.NewPath("status")
	allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(ppm.Status.ObservedGeneration, p.Child("observedGeneration"))...)
	return append(allErrs, apimachineryvalidation.ValidateNonnegativeField(ppm.Status.MatchedPods, p.Child("matchedPods"))...)
}

func validatePodProbeMarkerSpec(spec *apps.PodProbeMarkerSpec, fldPath *field.Path) field.ErrorList {
	allErrs := validateSelector(spec.Selector, "PodProbeMarker", fldPath.Child("selector"))
	probes := fldPath.Child("probes")
	if len(spec.Probes) == 0 {
		allErrs = append(allErrs, field.Required(probes, "at least one probe"))
	}
	names, conditions := sets.New[string](), sets.New[string]()
	for i := range spec.Probes {
		allErrs = append(allErrs, validatePodContainerProbe(&spec.Probes[i], names, conditions, probes.Index(i))...)
	}
	return allErrs
}

func validatePodContainerProbe(p *apps.PodContainerProbe, names, conditions sets.Set[string], fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	allErrs = append(allErrs, validateProbeName(p.Name, fldPath.Child("name"))...)
	if names.Has(p.Name) {
		allErrs = append(allErrs, field.Duplicate(fldPath.Child("name"), p.Name))
	}
	names.Insert(p.Name)
	allErrs = append(allErrs, validateContainerName(p.ContainerName, fldPath.Child("containerName"))...)
	allErrs = append(allErrs, validateProbe(&p.Probe.Probe, fldPath.Child("probe"))...)

	policies := fldPath.Child("markerPolicy")
	states := sets.New[apps.ProbeState]()
	for i, mp := range p.MarkerPolicy {
		pp := policies.Index(i)
		if !phaseIn(mp.State, supportedMarkerStates) {
			allErrs = append(allErrs, field.NotSupported(pp.Child("state"), mp.State, supportedMarkerStates))
		} else if states.Has(mp.State) {
			allErrs = append(allErrs, field.Duplicate(pp.Child("state"), mp.State))
		}
		states.Insert(mp.State)
		if len(mp.Labels)+len(mp.Annotations) == 0 {
			allErrs = append(allErrs, field.Required(pp, "labels or annotations to put on the pod"))
		}
		allErrs = append(allErrs, metav1validation.ValidateLabels(mp.Labels, pp.Child("labels"))...)
		allErrs = append(allErrs, apimachineryvalidation.ValidateAnnotations(mp.Annotations, pp.Child("annotations"))...)
	}

	ct := fldPath.Child("podConditionType")
	switch {
	case p.PodConditionType == "" && len(p.MarkerPolicy) == 0:
		allErrs = append(allErrs, field.Required(ct, "markerPolicy or podConditionType: a probe must write its result somewhere"))
	case p.PodConditionType == "":
	case reservedPodConditionTypes.Has(p.PodConditionType):
		allErrs = append(allErrs, field.Forbidden(ct, "is written by kubelet, kube or Kruise"))
	default:
		for _, msg := range validation.IsQualifiedName(p.PodConditionType) {
			allErrs = append(allErrs, field.Invalid(ct, p.PodConditionType, msg))
		}
		if conditions.Has(p.PodConditionType) {
			allErrs = append(allErrs, field.Duplicate(ct, p.PodConditionType))
		}
		conditions.Insert(p.PodConditionType)
	}
	return allErrs
}

// validateProbeName: a qualified name without the separator of NodePodProbe names.
func validateProbeName(name string, fldPath *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var allErrs field.ErrorList
	for _, msg := range validation.IsQualifiedName(name) {
		allErrs = append(allErrs, field.Invalid(fldPath, name, msg))
	}
	if strings.Contains(name, ProbeNameSeparator) && len(allErrs) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, name, "may not contain '#'"))
	}
	return allErrs
}

func validateContainerName(name string, fldPath *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var allErrs field.ErrorList
	for _, msg := range validation.IsDNS1123Label(name) {
		allErrs = append(allErrs, field.Invalid(fldPath, name, msg))
	}
	return allErrs
}
