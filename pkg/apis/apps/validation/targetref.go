package validation

import (
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateTargetReference checks a targetRef (apiVersion, kind, name of a workload in
// the object's namespace) that must name one of targets: WorkloadSpread,
// PersistentPodState and PodUnavailableBudget share it, so one reference is accepted or
// refused alike, with the same messages, whichever kind holds it.
func ValidateTargetReference(apiVersion, kind, name string, targets []schema.GroupKind, fld *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	gv, err := schema.ParseGroupVersion(apiVersion)
	switch {
	case apiVersion == "":
		allErrs = append(allErrs, field.Required(fld.Child("apiVersion"), ""))
	case err != nil || gv.Version == "":
		allErrs = append(allErrs, field.Invalid(fld.Child("apiVersion"), apiVersion, "must be <group>/<version> or v1"))
	}
	if kind == "" {
		allErrs = append(allErrs, field.Required(fld.Child("kind"), ""))
	} else if err == nil && apiVersion != "" {
		gk := gv.WithKind(kind).GroupKind()
		supported := false
		var names []string
		for _, s := range targets {
			supported = supported || s == gk
			names = append(names, s.String())
		}
		if !supported {
			allErrs = append(allErrs, field.NotSupported(fld.Child("kind"), gk.String(), names))
		}
	}
	if name == "" {
		allErrs = append(allErrs, field.Required(fld.Child("name"), ""))
	} else {
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(name, false) {
			allErrs = append(allErrs, field.Invalid(fld.Child("name"), name, msg))
		}
	}
	return allErrs
}
