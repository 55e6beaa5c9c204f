package validation

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// WorkloadSpreadTargets are the workload kinds a WorkloadSpread may target: those whose
// pods the pod webhook can trace back to them (OpenKruise's list).
var WorkloadSpreadTargets = []schema.GroupKind{
	{Group: apps.GroupName, Kind: "CloneSet"},
	{Group: apps.GroupName, Kind: "StatefulSet"},
	{Group: "apps", Kind: "Deployment"},
	{Group: "apps", Kind: "ReplicaSet"},
	{Group: "apps", Kind: "StatefulSet"},
	{Group: "batch", Kind: "Job"},
}

// ValidateWorkloadSpread validates a WorkloadSpread: a supported target, at least one
// subset with unique names, valid node terms and tolerations, a maxReplicas that is a
// non-negative number or a percent up to 100%, a patch that applies to a pod, and a
// known schedule strategy.
func ValidateWorkloadSpread(ws *apps.WorkloadSpread) field.ErrorList {
	if ws == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil WorkloadSpread"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&ws.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateWorkloadSpreadSpec(&ws.Spec, field.NewPath("spec"))...)
	return append(allErrs, validateSpreadShares(&ws.Spec, field.NewPath("spec"))...)
}

// ValidateWorkloadSpreadUpdate validates the new spec. The target stays the same
// workload; everything else may change (the controller re-counts).
func ValidateWorkloadSpreadUpdate(ws, old *apps.WorkloadSpread) field.ErrorList {
	spec := field.NewPath("spec")
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ws.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateWorkloadSpreadSpec(&ws.Spec, spec)...)
	allErrs = append(allErrs, validateSpreadTargetUpdate(ws.Spec.TargetReference, old.Spec.TargetReference, spec.Child("targetRef"))...)
	return append(allErrs, validateSpreadSharesUpdate(&ws.Spec, &old.Spec, spec)...)
}

// ValidateWorkloadSpreadStatusUpdate checks what the webhook and the controller write:
// subset statuses name distinct subsets, missingReplicas is -1 or more, replicas 0 or more.
func ValidateWorkloadSpreadStatusUpdate(ws, old *apps.WorkloadSpread) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ws.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	seen := sets.New[string]()
	fld := field.NewPath("status", "subsetStatuses")
	for i, s := range ws.Status.SubsetStatuses {
		if seen.Has(s.Name) {
			allErrs = append(allErrs, field.Duplicate(fld.Index(i).Child("name"), s.Name))
		}
		seen.Insert(s.Name)
		if s.MissingReplicas < -1 {
			allErrs = append(allErrs, field.Invalid(fld.Index(i).Child("missingReplicas"), s.MissingReplicas, "must be -1 (unlimited) or more"))
		}
		if s.Replicas < 0 {
			allErrs = append(allErrs, field.Invalid(fld.Index(i).Child("replicas"), s.Replicas, "must be 0 or more"))
		}
	}
	return allErrs
}

func validateWorkloadSpreadSpec(spec *apps.WorkloadSpreadSpec, fld *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if spec.TargetReference == nil {
		allErrs = append(allErrs, field.Required(fld.Child("targetRef"), ""))
	} else {
		allErrs = append(allErrs, ValidateTargetReference(spec.TargetReference.APIVersion, spec.TargetReference.Kind, spec.TargetReference.Name, WorkloadSpreadTargets, fld.Child("targetRef"))...)
	}
	allErrs = append(allErrs, validateTargetFilter(spec.TargetFilter, fld.Child("targetFilter"))...)
	subsetsPath := fld.Child("subsets")
	if len(spec.Subsets) == 0 {
		allErrs = append(allErrs, field.Required(subsetsPath, "at least one subset"))
	}
	names := sets.New[string]()
	for i := range spec.Subsets {
		s := &spec.Subsets[i]
		p := subsetsPath.Index(i)
		if s.Name == "" {
			allErrs = append(allErrs, field.Required(p.Child("name"), ""))
		} else {
			for _, msg := range apimachineryvalidation.NameIsDNSLabel(s.Name, false) {
				allErrs = append(allErrs, field.Invalid(p.Child("name"), s.Name, msg))
			}
			if names.Has(s.Name) {
				allErrs = append(allErrs, field.Duplicate(p.Child("name"), s.Name))
			}
			names.Insert(s.Name)
		}
		allErrs = append(allErrs, validateSpreadSubsetPlacement(s, p)...)
		allErrs = append(allErrs, validateOptionalIntOrPercent(s.MaxReplicas, true, p.Child("maxReplicas"))...)
		allErrs = append(allErrs, validateSubsetPatch(s.Patch.Raw, p.Child("patch"))...)
	}
	return append(allErrs, validateSpreadScheduleStrategy(&spec.ScheduleStrategy, fld.Child("scheduleStrategy"))...)
}

// validateSpreadSubsetPlacement checks the node terms and tolerations with kube's pod rules.
func validateSpreadSubsetPlacement(s *apps.WorkloadSpreadSubset, p *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if s.RequiredNodeSelectorTerm != nil {
		allErrs = append(allErrs, validateNodeSelectorTerm(s.RequiredNodeSelectorTerm, p.Child("requiredNodeSelectorTerm"))...)
	}
	allErrs = append(allErrs, validatePreferredSchedulingTerms(s.PreferredNodeSelectorTerms, p.Child("preferredNodeSelectorTerms"))...)
	return append(allErrs, validateTolerations(s.Tolerations, p.Child("tolerations"))...)
}

// validateSubsetPatch checks that the patch is a JSON object that applies, as a
// strategic-merge patch, to a pod: a patch that cannot would fail every pod create.
func validateSubsetPatch(raw []byte, fld *field.Path) field.ErrorList {
	if len(raw) == 0 {
		return nil
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return field.ErrorList{field.Invalid(fld, string(raw), fmt.Sprintf("must be a JSON object: %v", err))}
	}
	out, err := strategicpatch.StrategicMergePatch([]byte(`{}`), raw, &corev1.Pod{})
	if err == nil {
		var pod corev1.Pod
		err = json.Unmarshal(out, &pod)
	}
	if err != nil {
		return field.ErrorList{field.Invalid(fld, string(raw), fmt.Sprintf("must be a strategic-merge patch of a pod: %v", err))}
	}
	return nil
}

func validateSpreadScheduleStrategy(s *apps.WorkloadSpreadScheduleStrategy, fld *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	switch s.Type {
	case apps.FixedWorkloadSpreadScheduleStrategyType:
		if s.Adaptive != nil {
			allErrs = append(allErrs, field.Forbidden(fld.Child("adaptive"), "only with type Adaptive"))
		}
	case apps.AdaptiveWorkloadSpreadScheduleStrategyType:
		if s.Adaptive != nil && s.Adaptive.RescheduleCriticalSeconds != nil {
			if v := *s.Adaptive.RescheduleCriticalSeconds; v < 0 || v > 3600 {
				allErrs = append(allErrs, field.Invalid(fld.Child("adaptive", "rescheduleCriticalSeconds"), v, "must be between 0 and 3600"))
			}
		}
	default:
		allErrs = append(allErrs, field.NotSupported(fld.Child("type"), s.Type,
			[]apps.WorkloadSpreadScheduleStrategyType{apps.FixedWorkloadSpreadScheduleStrategyType, apps.AdaptiveWorkloadSpreadScheduleStrategyType}))
	}
	return allErrs
}

// validateTargetFilter checks the selector with kube's rules and each replicas path:
// dot-separated field names, none empty (the controller sums the integers found there).
func validateTargetFilter(f *apps.TargetFilter, fld *field.Path) field.ErrorList {
	if f == nil {
		return nil
	}
	var allErrs field.ErrorList
	if f.Selector != nil {
		allErrs = append(allErrs, metav1validation.ValidateLabelSelector(f.Selector,
			metav1validation.LabelSelectorValidationOptions{}, fld.Child("selector"))...)
	}
	for i, path := range f.ReplicasPathList {
		p := fld.Child("replicasPathList").Index(i)
		switch {
		case path == "":
			allErrs = append(allErrs, field.Required(p, ""))
		case slices.Contains(strings.Split(path, "."), ""):
			allErrs = append(allErrs, field.Invalid(p, path, "must be field names separated by single dots, e.g. spec.replicas"))
		}
	}
	return allErrs
}
