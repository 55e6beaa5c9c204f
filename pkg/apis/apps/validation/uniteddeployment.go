package validation

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/rules/uniteddeployment"
)

// subsetTemplates are the union members of spec.template, by JSON name.
var subsetTemplates = []string{"statefulSetTemplate", "advancedStatefulSetTemplate", "cloneSetTemplate", "deploymentTemplate"}

// ValidateUnitedDeployment validates a new UnitedDeployment.
func ValidateUnitedDeployment(ud *apps.UnitedDeployment) field.ErrorList {
	if ud == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil UnitedDeployment"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&ud.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateSubsetWorkloadNames(ud.Name, &ud.Spec, nil, field.NewPath("metadata", "name"))...)
	return append(allErrs, validateUnitedDeploymentSpec(&ud.Spec, nil, field.NewPath("spec"))...)
}

// ValidateUnitedDeploymentUpdate validates an update: the new spec must be valid, and
// neither the selector nor the kind of workload may change (the subsets' workloads
// and their pods are found through the selector).
func ValidateUnitedDeploymentUpdate(ud, old *apps.UnitedDeployment) field.ErrorList {
	if ud == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil UnitedDeployment"))}
	}
	specPath := field.NewPath("spec")
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ud.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateSubsetWorkloadNames(ud.Name, &ud.Spec, &old.Spec, field.NewPath("metadata", "name"))...)
	allErrs = append(allErrs, validateUnitedDeploymentSpec(&ud.Spec, &old.Spec, specPath)...)
	if !apiequality.Semantic.DeepEqual(ud.Spec.Selector, old.Spec.Selector) {
		allErrs = append(allErrs, field.Invalid(specPath.Child("selector"), ud.Spec.Selector, apimachineryvalidation.FieldImmutableErrorMsg))
	}
	if k, oldK := templateKinds(&ud.Spec.Template), templateKinds(&old.Spec.Template); len(k) == 1 && len(oldK) == 1 && k[0] != oldK[0] {
		allErrs = append(allErrs, field.Forbidden(specPath.Child("template"),
			fmt.Sprintf("the workload kind may not change (from %s to %s)", oldK[0], k[0])))
	}
	return allErrs
}

// ValidateUnitedDeploymentStatusUpdate validates what the controller reports.
func ValidateUnitedDeploymentStatusUpdate(ud, old *apps.UnitedDeployment) field.ErrorList {
	if ud == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil UnitedDeployment"))}
	}
	statusPath := field.NewPath("status")
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ud.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	s := &ud.Status
	allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(s.ObservedGeneration, statusPath.Child("observedGeneration"))...)
	allErrs = append(allErrs, validateCounters([]counter{{"replicas", s.Replicas}, {"readyReplicas", s.ReadyReplicas},
		{"updatedReplicas", s.UpdatedReplicas}, {"updatedReadyReplicas", s.UpdatedReadyReplicas}}, statusPath)...)
	return append(allErrs, validateCollisionCountUpdate(s.CollisionCount, old.Status.CollisionCount, statusPath.Child("collisionCount"))...)
}

func templateKinds(t *apps.SubsetTemplate) []string {
	var set []string
	if t.StatefulSetTemplate != nil {
		set = append(set, "statefulSetTemplate")
	}
	if t.AdvancedStatefulSetTemplate != nil {
		set = append(set, "advancedStatefulSetTemplate")
	}
	if t.CloneSetTemplate != nil {
		set = append(set, "cloneSetTemplate")
	}
	if t.DeploymentTemplate != nil {
		set = append(set, "deploymentTemplate")
	}
	return set
}

// validateUnitedDeploymentSpec checks a spec; oldSpec is nil on create. The subsets'
// fixed shares are checked against spec.replicas when the subsets are written, not on
// a scale alone: an HPA or `kubectl scale` may go below them, and the division then
// serves the earlier subsets first.
func validateUnitedDeploymentSpec(spec, oldSpec *apps.UnitedDeploymentSpec, fldPath *field.Path) field.ErrorList {
	allErrs := validateReplicas(spec.Replicas, fldPath.Child("replicas"))
	allErrs = append(allErrs, validateSelector(spec.Selector, "UnitedDeployment", fldPath.Child("selector"))...)
	allErrs = append(allErrs, validateNonnegativeOptional(spec.RevisionHistoryLimit, fldPath.Child("revisionHistoryLimit"))...)
	allErrs = append(allErrs, validateSubsetTemplate(spec, fldPath.Child("template"))...)
	checkShares := oldSpec == nil || !apiequality.Semantic.DeepEqual(spec.Topology, oldSpec.Topology)
	allErrs = append(allErrs, validateTopology(spec, checkShares, fldPath.Child("topology"))...)
	allErrs = append(allErrs, validateUnitedDeploymentRules(spec, oldSpec, fldPath)...)
	return append(allErrs, validateUnitedDeploymentUpdateStrategy(spec, fldPath.Child("updateStrategy"))...)
}

// validateSubsetTemplate checks that exactly one workload template is set and that it
// makes a valid workload once the controller gives it the UnitedDeployment's selector
// (the template's own selector and replicas are replaced per subset).
func validateSubsetTemplate(spec *apps.UnitedDeploymentSpec, fldPath *field.Path) field.ErrorList {
	set := templateKinds(&spec.Template)
	switch len(set) {
	case 0:
		return field.ErrorList{field.Required(fldPath, "one of "+strings.Join(subsetTemplates, ", "))}
	case 1:
	default:
		return field.ErrorList{field.Invalid(fldPath, strings.Join(set, ", "),
			fmt.Sprintf("exactly one of %s may be set", strings.Join(subsetTemplates, ", ")))}
	}
	t := &spec.Template
	var allErrs field.ErrorList
	switch {
	case t.CloneSetTemplate != nil:
		p := fldPath.Child("cloneSetTemplate")
		allErrs = append(allErrs, validateTemplateMeta(t.CloneSetTemplate.Labels, t.CloneSetTemplate.Annotations, p.Child("metadata"))...)
		cs := t.CloneSetTemplate.Spec.DeepCopy()
		cs.Selector, cs.Replicas = spec.Selector, new(int32)
		if cs.UpdateStrategy.Type == "" {
			cs.UpdateStrategy.Type = apps.RecreateCloneSetUpdateStrategyType
		}
		allErrs = append(allErrs, withoutField(validateCloneSetSpec(cs, nil, p.Child("spec")), p.Child("spec", "selector"))...)
	case t.AdvancedStatefulSetTemplate != nil:
		p := fldPath.Child("advancedStatefulSetTemplate")
		allErrs = append(allErrs, validateTemplateMeta(t.AdvancedStatefulSetTemplate.Labels, t.AdvancedStatefulSetTemplate.Annotations, p.Child("metadata"))...)
		ss := t.AdvancedStatefulSetTemplate.Spec.DeepCopy()
		ss.Selector, ss.Replicas = spec.Selector, new(int32)
		// The Advanced StatefulSet's own defaults apply when the controller creates it.
		if ss.PodManagementPolicy == "" {
			ss.PodManagementPolicy = "OrderedReady"
		}
		if ss.UpdateStrategy.Type == "" {
			ss.UpdateStrategy.Type = "RollingUpdate"
		}
		allErrs = append(allErrs, withoutField(validateStatefulSetSpec(ss, statefulSetSpecOptions{}, p.Child("spec")), p.Child("spec", "selector"))...)
	case t.StatefulSetTemplate != nil:
		p := fldPath.Child("statefulSetTemplate")
		allErrs = append(allErrs, validateTemplateMeta(t.StatefulSetTemplate.Labels, t.StatefulSetTemplate.Annotations, p.Child("metadata"))...)
		s := &t.StatefulSetTemplate.Spec
		allErrs = append(allErrs, withoutField(validateSelectorAndTemplate(workloadTemplate{
			kind: "StatefulSet", selector: spec.Selector, template: &s.Template, claims: s.VolumeClaimTemplates,
			controllerSetsIdentity: true,
		}, p.Child("spec")), p.Child("spec", "selector"))...)
	case t.DeploymentTemplate != nil:
		p := fldPath.Child("deploymentTemplate")
		allErrs = append(allErrs, validateTemplateMeta(t.DeploymentTemplate.Labels, t.DeploymentTemplate.Annotations, p.Child("metadata"))...)
		allErrs = append(allErrs, withoutField(validateSelectorAndTemplate(workloadTemplate{
			kind: "Deployment", selector: spec.Selector, template: &t.DeploymentTemplate.Spec.Template,
		}, p.Child("spec")), p.Child("spec", "selector"))...)
	}
	return allErrs
}

// subsetWorkloadKind is the kind of the subsets' workloads when their names are
// limited to MaxWorkloadNameLength, else "".
func subsetWorkloadKind(t *apps.SubsetTemplate) string {
	switch k := templateKinds(t); {
	case len(k) != 1:
		return "" // refused on its own
	case t.CloneSetTemplate != nil:
		return "CloneSet"
	case t.AdvancedStatefulSetTemplate != nil:
		return "Advanced StatefulSet"
	case t.StatefulSetTemplate != nil:
		return "StatefulSet"
	}
	return "" // a Deployment's generated name fits whatever the prefix
}

// validateSubsetWorkloadNames refuses a UnitedDeployment name too long for its
// revision label on the subsets' workloads or for the name of a subset's workload,
// <name>-<subset>-<5 random characters>. On update (oldSpec set) the stored name is not
// checked again, only with the subsets the update adds.
func validateSubsetWorkloadNames(name string, spec, oldSpec *apps.UnitedDeploymentSpec, fldPath *field.Path) field.ErrorList {
	var derived []derivedName
	existing := sets.New[string]()
	if oldSpec == nil {
		derived = append(derived, revisionLabel("its subsets' workloads are"))
	} else {
		for _, s := range oldSpec.Topology.Subsets {
			existing.Insert(s.Name)
		}
	}
	if kind := subsetWorkloadKind(&spec.Template); kind != "" {
		for _, s := range spec.Topology.Subsets {
			if !existing.Has(s.Name) {
				derived = append(derived, unitedDeploymentSubset(kind, s.Name))
			}
		}
	}
	return validateDerivedNames(name, fldPath, derived...)
}

// withoutField drops errors about path and what is under it: the UnitedDeployment's
// selector stands in for the template's and is reported at spec.selector.
func withoutField(errs field.ErrorList, path *field.Path) field.ErrorList {
	p := path.String()
	out := errs[:0:0]
	for _, e := range errs {
		if e.Field != p && !strings.HasPrefix(e.Field, p+".") && !strings.HasPrefix(e.Field, p+"[") {
			out = append(out, e)
		}
	}
	return out
}

// validateTopology checks the subsets: unique DNS-label names, valid node terms,
// tolerations and patches, replicas as numbers or percents (at most 100% each and
// together; with checkShares, numbers plus percents of spec.replicas — exactly, before
// rounding — never more than spec.replicas), and minReplicas/maxReplicas (not beside
// replicas, min <= max).
func validateTopology(spec *apps.UnitedDeploymentSpec, checkShares bool, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	subsetsPath := fldPath.Child("subsets")
	names := sets.New[string]()
	var total int32
	if spec.Replicas != nil {
		total = *spec.Replicas
	}
	elastic := false
	for _, s := range spec.Topology.Subsets {
		if s.MinReplicas != nil || s.MaxReplicas != nil {
			elastic = true
		}
	}
	var fixed int64
	var percents int
	for i := range spec.Topology.Subsets {
		s := &spec.Topology.Subsets[i]
		p := subsetsPath.Index(i)
		namePath := p.Child("name")
		switch {
		case s.Name == "":
			allErrs = append(allErrs, field.Required(namePath, ""))
		case names.Has(s.Name):
			allErrs = append(allErrs, field.Duplicate(namePath, s.Name))
		default:
			for _, msg := range apimachineryvalidation.NameIsDNSLabel(s.Name, false) {
				allErrs = append(allErrs, field.Invalid(namePath, s.Name, msg))
			}
		}
		names.Insert(s.Name)
		allErrs = append(allErrs, validateSubsetPlacement(s, p)...)

		if r := s.Replicas; r != nil {
			rp := p.Child("replicas")
			if errs := validateIntOrPercent(*r, true, rp); len(errs) > 0 {
				allErrs = append(allErrs, errs...)
				continue
			}
			if elastic {
				allErrs = append(allErrs, field.Forbidden(rp, "replicas and minReplicas/maxReplicas may not be used together in one UnitedDeployment"))
				continue
			}
			if r.Type == intstr.String {
				v, _ := parsePercent(r.StrVal)
				percents += v
			} else {
				fixed += int64(r.IntVal)
			}
			switch {
			case percents > 100 && r.Type == intstr.String:
				allErrs = append(allErrs, field.Invalid(rp, r.StrVal, fmt.Sprintf("the subsets' percents add up to %d%%, more than 100%%", percents)))
			case checkShares && total >= 0 && fixed*100+int64(percents)*int64(total) > int64(total)*100:
				allErrs = append(allErrs, field.Invalid(rp, r.String(), fmt.Sprintf(
					"the subsets' replicas add up to more than spec.replicas (%d): %d and %d%% of it", total, fixed, percents)))
			}
		}
		allErrs = append(allErrs, validateOptionalIntOrPercent(s.MinReplicas, true, p.Child("minReplicas"))...)
		allErrs = append(allErrs, validateOptionalIntOrPercent(s.MaxReplicas, true, p.Child("maxReplicas"))...)
		if s.MinReplicas != nil && s.MaxReplicas != nil {
			lo, err1 := uniteddeployment.Scaled(*s.MinReplicas, total)
			hi, err2 := uniteddeployment.Scaled(*s.MaxReplicas, total)
			if err1 == nil && err2 == nil && lo > hi {
				allErrs = append(allErrs, field.Invalid(p.Child("minReplicas"), s.MinReplicas.String(), "must not be greater than maxReplicas"))
			}
		}
	}
	return append(allErrs, validateScheduleStrategy(&spec.Topology.ScheduleStrategy, fldPath.Child("scheduleStrategy"))...)
}

// validateSubsetPlacement checks what a subset adds to its pods: the node term (as
// kube checks required node affinity), tolerations, and a patch that is a JSON object.
func validateSubsetPlacement(s *apps.Subset, p *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(s.NodeSelectorTerm.MatchExpressions)+len(s.NodeSelectorTerm.MatchFields) > 0 {
		allErrs = append(allErrs, validateNodeSelectorTerm(&s.NodeSelectorTerm, p.Child("nodeSelectorTerm"))...)
	}
	allErrs = append(allErrs, validateTolerations(s.Tolerations, p.Child("tolerations"))...)
	if raw := s.Patch.Raw; len(raw) > 0 && string(raw) != "null" {
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil {
			allErrs = append(allErrs, field.Invalid(p.Child("patch"), string(raw), "must be a JSON object (a strategic merge patch of the pod template)"))
		}
	}
	return allErrs
}

var supportedScheduleStrategies = []apps.UnitedDeploymentScheduleStrategyType{
	apps.FixedUnitedDeploymentScheduleStrategyType, apps.AdaptiveUnitedDeploymentScheduleStrategyType,
}

func validateScheduleStrategy(s *apps.UnitedDeploymentScheduleStrategy, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	switch s.Type {
	case "", apps.FixedUnitedDeploymentScheduleStrategyType, apps.AdaptiveUnitedDeploymentScheduleStrategyType:
	default:
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("type"), s.Type, supportedScheduleStrategies))
	}
	if a := s.Adaptive; a != nil {
		p := fldPath.Child("adaptive")
		allErrs = append(allErrs, validateNonnegativeOptional(a.RescheduleCriticalSeconds, p.Child("rescheduleCriticalSeconds"))...)
		allErrs = append(allErrs, validateNonnegativeOptional(a.UnschedulableLastSeconds, p.Child("unschedulableLastSeconds"))...)
		allErrs = append(allErrs, validateNonnegativeOptional(a.UnschedulableDuration, p.Child("unschedulableDuration"))...)
	}
	return allErrs
}

// validateUnitedDeploymentUpdateStrategy checks the Manual strategy: partitions are not
// negative (that each names a subset is checked by validatePartitionSubsets).
func validateUnitedDeploymentUpdateStrategy(spec *apps.UnitedDeploymentSpec, fldPath *field.Path) field.ErrorList {
	s := &spec.UpdateStrategy
	var allErrs field.ErrorList
	if s.Type != apps.ManualUpdateStrategyType {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("type"), s.Type, []apps.UpdateStrategyType{apps.ManualUpdateStrategyType}))
	}
	if s.ManualUpdate == nil {
		return allErrs
	}
	pp := fldPath.Child("manualUpdate", "partitions")
	for _, name := range sets.List(sets.KeySet(s.ManualUpdate.Partitions)) {
		v := s.ManualUpdate.Partitions[name]
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(v), pp.Key(name))...)
	}
	return allErrs
}
