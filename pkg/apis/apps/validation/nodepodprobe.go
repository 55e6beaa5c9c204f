package validation

import (
	"errors"
	"strings"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

var supportedProbeStates = []apps.ProbeState{apps.ProbeSucceeded, apps.ProbeFailed, apps.ProbeUnknown}

// ValidateNodePodProbe validates a NodePodProbe; its name is the node's.
func ValidateNodePodProbe(npp *apps.NodePodProbe) field.ErrorList {
	if npp == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil NodePodProbe"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&npp.ObjectMeta, false,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(allErrs, validateNodePodProbeSpec(&npp.Spec, field.NewPath("spec"))...)
}

// ValidateNodePodProbeUpdate validates an update of a NodePodProbe's spec.
func ValidateNodePodProbeUpdate(npp, old *apps.NodePodProbe) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&npp.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(allErrs, validateNodePodProbeSpec(&npp.Spec, field.NewPath("spec"))...)
}

// ValidateNodePodProbeStatusUpdate validates the node daemon's status write.
func ValidateNodePodProbeStatusUpdate(npp, old *apps.NodePodProbe) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&npp.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	statuses := field.NewPath("status", "podProbeStatuses")
	pods := sets.New[string]()
	for i, ps := range npp.Status.PodProbeStatuses {
		p := statuses.Index(i)
		allErrs = append(allErrs, validatePodRef(ps.Namespace, ps.Name, ps.UID, p)...)
		if pods.Has(ps.UID) {
			allErrs = append(allErrs, field.Duplicate(p.Child("uid"), ps.UID))
		}
		pods.Insert(ps.UID)
		names := sets.New[string]()
		for j, st := range ps.ProbeStates {
			sp := p.Child("probeStates").Index(j)
			allErrs = append(allErrs, validateNodeProbeName(st.Name, sp.Child("name"))...)
			if names.Has(st.Name) {
				allErrs = append(allErrs, field.Duplicate(sp.Child("name"), st.Name))
			}
			names.Insert(st.Name)
			if !phaseIn(st.State, supportedProbeStates) {
				allErrs = append(allErrs, field.NotSupported(sp.Child("state"), st.State, supportedProbeStates))
			}
		}
	}
	return allErrs
}

func validateNodePodProbeSpec(spec *apps.NodePodProbeSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	pods := sets.New[string]()
	for i := range spec.PodProbes {
		pp := &spec.PodProbes[i]
		p := fldPath.Child("podProbes").Index(i)
		allErrs = append(allErrs, validatePodRef(pp.Namespace, pp.Name, pp.UID, p)...)
		if pods.Has(pp.UID) {
			allErrs = append(allErrs, field.Duplicate(p.Child("uid"), pp.UID))
		}
		pods.Insert(pp.UID)
		names := sets.New[string]()
		for j := range pp.Probes {
			cp := &pp.Probes[j]
			q := p.Child("probes").Index(j)
			allErrs = append(allErrs, validateNodeProbeName(cp.Name, q.Child("name"))...)
			if names.Has(cp.Name) {
				allErrs = append(allErrs, field.Duplicate(q.Child("name"), cp.Name))
			}
			names.Insert(cp.Name)
			allErrs = append(allErrs, validateContainerName(cp.ContainerName, q.Child("containerName"))...)
			allErrs = append(allErrs, validateProbe(&cp.Probe.Probe, q.Child("probe"))...)
		}
	}
	return allErrs
}

func validatePodRef(namespace, name, uid string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, f := range []struct{ name, value string }{{"name", name}, {"namespace", namespace}, {"uid", uid}} {
		if f.value == "" {
			allErrs = append(allErrs, field.Required(fldPath.Child(f.name), ""))
		}
	}
	return allErrs
}

// validateNodeProbeName: "<PodProbeMarker name>#<probe name>".
func validateNodeProbeName(name string, fldPath *field.Path) field.ErrorList {
	marker, probe, ok := strings.Cut(name, ProbeNameSeparator)
	if !ok || marker == "" || probe == "" {
		return field.ErrorList{field.Invalid(fldPath, name, "must be <PodProbeMarker name>#<probe name>")}
	}
	return nil
}
