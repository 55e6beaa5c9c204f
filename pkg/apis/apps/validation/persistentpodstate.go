package validation

import (
	"errors"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// PersistentPodStateTargets are the workloads whose pods a PersistentPodState records:
// their pods have stable names, the only thing a record is keyed by. (OpenKruise's
// custom-workload whitelist is not served.)
var PersistentPodStateTargets = []schema.GroupKind{
	{Group: "apps", Kind: "StatefulSet"},
	{Group: apps.GroupName, Kind: "StatefulSet"},
}

var supportedPodStateRetentionPolicies = sets.New(
	string(apps.PersistentPodStateRetentionPolicyWhenScaled),
	string(apps.PersistentPodStateRetentionPolicyWhenDeleted),
)

// ValidatePersistentPodState validates a new PersistentPodState.
func ValidatePersistentPodState(pps *apps.PersistentPodState) field.ErrorList {
	if pps == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil PersistentPodState"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&pps.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(allErrs, validatePersistentPodStateSpec(&pps.Spec, field.NewPath("spec"))...)
}

// ValidatePersistentPodStateUpdate validates an update: targetRef is immutable (as in
// OpenKruise), the records belong to the pods of that workload.
func ValidatePersistentPodStateUpdate(pps, old *apps.PersistentPodState) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&pps.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validatePersistentPodStateSpec(&pps.Spec, field.NewPath("spec"))...)
	if !apiequality.Semantic.DeepEqual(pps.Spec.TargetReference, old.Spec.TargetReference) {
		allErrs = append(allErrs, field.Invalid(field.NewPath("spec", "targetRef"), pps.Spec.TargetReference, "field is immutable"))
	}
	return allErrs
}

// ValidatePersistentPodStateStatusUpdate validates a status write: the records must be
// usable as node affinity (label keys and values) by the pod webhook.
func ValidatePersistentPodStateStatusUpdate(pps, old *apps.PersistentPodState) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&pps.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	p := field.NewPath("status")
	allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(pps.Status.ObservedGeneration, p.Child("observedGeneration"))...)
	for name, st := range pps.Status.PodStates {
		sp := p.Child("podStates").Key(name)
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(name, false) {
			allErrs = append(allErrs, field.Invalid(sp, name, msg))
		}
		allErrs = append(allErrs, metav1validation.ValidateLabels(st.NodeTopologyLabels, sp.Child("nodeTopologyLabels"))...)
		allErrs = append(allErrs, apimachineryvalidation.ValidateAnnotations(st.Annotations, sp.Child("annotations"))...)
	}
	return allErrs
}

func validatePersistentPodStateSpec(spec *apps.PersistentPodStateSpec, fld *field.Path) field.ErrorList {
	allErrs := ValidateTargetReference(spec.TargetReference.APIVersion, spec.TargetReference.Kind, spec.TargetReference.Name, PersistentPodStateTargets, fld.Child("targetRef"))
	if spec.RequiredPersistentTopology == nil && len(spec.PreferredPersistentTopology) == 0 {
		allErrs = append(allErrs, field.Required(fld.Child("requiredPersistentTopology"),
			"requiredPersistentTopology or preferredPersistentTopology must be set"))
	}
	if t := spec.RequiredPersistentTopology; t != nil {
		allErrs = append(allErrs, validateNodeTopologyTerm(t, fld.Child("requiredPersistentTopology"))...)
	}
	for i, t := range spec.PreferredPersistentTopology {
		p := fld.Child("preferredPersistentTopology").Index(i)
		// The webhook copies the weight into a preferred scheduling term: kube's range.
		if t.Weight < 1 || t.Weight > 100 {
			allErrs = append(allErrs, field.Invalid(p.Child("weight"), t.Weight, "must be in the range 1-100"))
		}
		allErrs = append(allErrs, validateNodeTopologyTerm(&t.Preference, p.Child("preference"))...)
	}
	seen := sets.New[string]()
	for i, a := range spec.PersistentPodAnnotations {
		p := fld.Child("persistentPodAnnotations").Index(i).Child("key")
		switch {
		case a.Key == "":
			allErrs = append(allErrs, field.Required(p, ""))
		case seen.Has(a.Key):
			allErrs = append(allErrs, field.Duplicate(p, a.Key))
		default:
			allErrs = append(allErrs, metav1validation.ValidateLabelName(a.Key, p)...)
		}
		seen.Insert(a.Key)
	}
	if r := spec.PersistentPodStateRetentionPolicy; r != "" && !supportedPodStateRetentionPolicies.Has(string(r)) {
		allErrs = append(allErrs, field.NotSupported(fld.Child("persistentPodStateRetentionPolicy"), r, sets.List(supportedPodStateRetentionPolicies)))
	}
	return allErrs
}

// validateNodeTopologyTerm: at least one key, each a label key, none twice.
func validateNodeTopologyTerm(t *apps.NodeTopologyTerm, fld *field.Path) field.ErrorList {
	p := fld.Child("nodeTopologyKeys")
	if len(t.NodeTopologyKeys) == 0 {
		return field.ErrorList{field.Required(p, "")}
	}
	var allErrs field.ErrorList
	seen := sets.New[string]()
	for i, k := range t.NodeTopologyKeys {
		if seen.Has(k) {
			allErrs = append(allErrs, field.Duplicate(p.Index(i), k))
			continue
		}
		seen.Insert(k)
		allErrs = append(allErrs, metav1validation.ValidateLabelName(k, p.Index(i))...)
	}
	return allErrs
}
