package validation

import (
	"fmt"
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// The rules of OpenKruise's UnitedDeployment webhook that need more than one field at
// a time. Each applies on create, and on update only when what it checks changed (a
// stored object that predates the rule stays updatable, as kube ratchets validation).

// validateUnitedDeploymentRules checks spec against the rules above; oldSpec is nil on
// create.
func validateUnitedDeploymentRules(spec, oldSpec *apps.UnitedDeploymentSpec, fldPath *field.Path) field.ErrorList {
	changed := func(get func(*apps.UnitedDeploymentSpec) any) bool {
		return oldSpec == nil || !apiequality.Semantic.DeepEqual(get(spec), get(oldSpec))
	}
	topology := changed(func(s *apps.UnitedDeploymentSpec) any { return s.Topology })
	var allErrs field.ErrorList
	if topology {
		allErrs = append(allErrs, validateAdaptiveSubsets(spec, fldPath.Child("topology"))...)
		allErrs = append(allErrs, validateSubsetShares(spec, fldPath.Child("topology", "subsets"))...)
	}
	if topology || changed(func(s *apps.UnitedDeploymentSpec) any { return s.UpdateStrategy.ManualUpdate }) {
		allErrs = append(allErrs, validatePartitionSubsets(spec, fldPath.Child("updateStrategy", "manualUpdate", "partitions"))...)
	}
	allErrs = append(allErrs, validateSubsetWorkloadTemplate(spec, oldSpec, fldPath.Child("template"))...)
	if oldSpec != nil {
		allErrs = append(allErrs, validateSubsetWorkloadTemplateUpdate(&spec.Template, &oldSpec.Template, fldPath.Child("template"))...)
	}
	return allErrs
}

// validateAdaptiveSubsets: with the Adaptive strategy a subset's share is elastic
// (minReplicas/maxReplicas), never fixed; reserving unschedulable pods works for
// stateless workloads only (a StatefulSet's pods have identities a temporary pod
// elsewhere cannot take).
func validateAdaptiveSubsets(spec *apps.UnitedDeploymentSpec, fldPath *field.Path) field.ErrorList {
	s := &spec.Topology.ScheduleStrategy
	if s.Type != apps.AdaptiveUnitedDeploymentScheduleStrategyType {
		return nil
	}
	var allErrs field.ErrorList
	if s.Adaptive != nil && s.Adaptive.ReserveUnschedulablePods &&
		(spec.Template.StatefulSetTemplate != nil || spec.Template.AdvancedStatefulSetTemplate != nil) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("scheduleStrategy", "adaptive", "reserveUnschedulablePods"), true,
			"only stateless workloads (cloneSetTemplate, deploymentTemplate) may reserve unschedulable pods"))
	}
	for i := range spec.Topology.Subsets {
		if spec.Topology.Subsets[i].Replicas != nil {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("subsets").Index(i).Child("replicas"),
				"a fixed share is not allowed with the Adaptive schedule strategy: use minReplicas/maxReplicas"))
		}
	}
	return allErrs
}

// validateSubsetShares checks the subsets' shares together: fixed shares of every
// subset add up to exactly spec.replicas (percents exactly, before rounding), and
// elastic shares leave room for every replica: some subset has no maxReplicas. (That
// the minimums add up to no more than the maximums follows from each subset's
// minReplicas <= maxReplicas, checked by validateTopology, as does any value that does
// not parse.)
func validateSubsetShares(spec *apps.UnitedDeploymentSpec, fldPath *field.Path) field.ErrorList {
	subsets := spec.Topology.Subsets
	if len(subsets) == 0 || spec.Replicas == nil || *spec.Replicas < 0 {
		return nil
	}
	total := *spec.Replicas
	var fixed, withMax int
	var sharesPercentOfTotal int64
	for i := range subsets {
		s := &subsets[i]
		if r := s.Replicas; r != nil {
			fixed++
			if r.Type == intstr.String {
				v, _ := parsePercent(r.StrVal)
				sharesPercentOfTotal += int64(v) * int64(total)
			} else {
				sharesPercentOfTotal += int64(r.IntVal) * 100
			}
		}
		if s.MaxReplicas != nil {
			withMax++
		}
	}
	var allErrs field.ErrorList
	if fixed == len(subsets) && sharesPercentOfTotal < int64(total)*100 {
		// More than spec.replicas is reported per subset by validateTopology.
		allErrs = append(allErrs, field.Invalid(fldPath, fmt.Sprintf("%d subsets", len(subsets)), fmt.Sprintf(
			"every subset has a fixed share, so they must add up to spec.replicas (%d): leave one subset's replicas unset to take the rest", total)))
	}
	if withMax > 0 && withMax == len(subsets) {
		allErrs = append(allErrs, field.Invalid(fldPath, fmt.Sprintf("%d subsets with maxReplicas", withMax),
			"at least one subset must have no maxReplicas, to take the replicas above the others' maximums"))
	}
	return allErrs
}

// validatePartitionSubsets: a partition names a subset of the topology.
func validatePartitionSubsets(spec *apps.UnitedDeploymentSpec, fldPath *field.Path) field.ErrorList {
	if spec.UpdateStrategy.ManualUpdate == nil {
		return nil
	}
	names := sets.New[string]()
	for i := range spec.Topology.Subsets {
		names.Insert(spec.Topology.Subsets[i].Name)
	}
	var allErrs field.ErrorList
	for _, name := range sets.List(sets.KeySet(spec.UpdateStrategy.ManualUpdate.Partitions)) {
		if !names.Has(name) {
			allErrs = append(allErrs, field.NotFound(fldPath.Key(name), name))
		}
	}
	return allErrs
}

// subsetWorkloadMeta is the template's workload metadata and, where OpenKruise's
// webhook refuses them, its replicas and partition (the controller sets both per
// subset): nil where the template kind has none.
type subsetWorkloadMeta struct {
	name      string
	labels    map[string]string
	replicas  *int32
	partition *int32
}

func subsetWorkload(t *apps.SubsetTemplate) *subsetWorkloadMeta {
	switch {
	case t.StatefulSetTemplate != nil:
		s := t.StatefulSetTemplate
		m := &subsetWorkloadMeta{name: "statefulSetTemplate", labels: s.Labels, replicas: s.Spec.Replicas}
		if ru := s.Spec.UpdateStrategy.RollingUpdate; s.Spec.UpdateStrategy.Type == appsv1.RollingUpdateStatefulSetStrategyType && ru != nil {
			m.partition = ru.Partition
		}
		return m
	case t.AdvancedStatefulSetTemplate != nil:
		s := t.AdvancedStatefulSetTemplate
		m := &subsetWorkloadMeta{name: "advancedStatefulSetTemplate", labels: s.Labels, replicas: s.Spec.Replicas}
		if ru := s.Spec.UpdateStrategy.RollingUpdate; s.Spec.UpdateStrategy.Type == appsv1.RollingUpdateStatefulSetStrategyType && ru != nil {
			m.partition = ru.Partition
		}
		return m
	case t.CloneSetTemplate != nil:
		return &subsetWorkloadMeta{name: "cloneSetTemplate", labels: t.CloneSetTemplate.Labels}
	case t.DeploymentTemplate != nil:
		return &subsetWorkloadMeta{name: "deploymentTemplate", labels: t.DeploymentTemplate.Labels, replicas: t.DeploymentTemplate.Spec.Replicas}
	}
	return nil
}

// validateSubsetWorkloadTemplate: the subsets' workloads are found by the
// UnitedDeployment's selector, so their labels (the template's, plus the selector's
// matchLabels the controller adds) must match it; and the template leaves replicas and
// partition to the controller. Each check applies on update only when its field changed.
func validateSubsetWorkloadTemplate(spec, oldSpec *apps.UnitedDeploymentSpec, fldPath *field.Path) field.ErrorList {
	w := subsetWorkload(&spec.Template)
	if w == nil || len(templateKinds(&spec.Template)) != 1 {
		return nil // refused by validateSubsetTemplate
	}
	var old *subsetWorkloadMeta
	if oldSpec != nil {
		old = subsetWorkload(&oldSpec.Template)
	}
	p := fldPath.Child(w.name)
	var allErrs field.ErrorList
	if spec.Selector != nil && (old == nil || !maps.Equal(old.labels, w.labels)) {
		if sel, err := metav1.LabelSelectorAsSelector(spec.Selector); err == nil && !sel.Empty() {
			built := maps.Clone(w.labels)
			if built == nil {
				built = map[string]string{}
			}
			maps.Copy(built, spec.Selector.MatchLabels)
			if !sel.Matches(labels.Set(built)) {
				allErrs = append(allErrs, field.Invalid(p.Child("metadata", "labels"), w.labels,
					"selector does not match the workload's labels (with the selector's matchLabels added)"))
			}
		}
	}
	if w.replicas != nil && (old == nil || old.replicas == nil || *old.replicas != *w.replicas) {
		allErrs = append(allErrs, field.Forbidden(p.Child("spec", "replicas"),
			"must not be set: each subset's replicas come from spec.replicas and spec.topology"))
	}
	if w.partition != nil && (old == nil || old.partition == nil || *old.partition != *w.partition) {
		allErrs = append(allErrs, field.Forbidden(p.Child("spec", "updateStrategy", "rollingUpdate", "partition"),
			"must not be set: each subset's partition comes from spec.updateStrategy.manualUpdate.partitions"))
	}
	return allErrs
}

const msgSubsetStatefulSetImmutable = "updates to the StatefulSet template's spec for fields other than " +
	"'template', 'updateStrategy' and 'replicas' are forbidden"

// validateSubsetWorkloadTemplateUpdate: a StatefulSet template (kube's or Advanced)
// may change only its pod template and update strategy, as OpenKruise's webhook
// allows: the controller could not apply other changes to the existing StatefulSets.
func validateSubsetWorkloadTemplateUpdate(t, old *apps.SubsetTemplate, fldPath *field.Path) field.ErrorList {
	switch {
	case t.StatefulSetTemplate != nil && old.StatefulSetTemplate != nil:
		spec := t.StatefulSetTemplate.Spec.DeepCopy()
		o := &old.StatefulSetTemplate.Spec
		spec.Template, spec.UpdateStrategy, spec.Replicas = o.Template, o.UpdateStrategy, o.Replicas
		if !apiequality.Semantic.DeepEqual(*spec, *o) {
			return field.ErrorList{field.Forbidden(fldPath.Child("statefulSetTemplate", "spec"), msgSubsetStatefulSetImmutable)}
		}
	case t.AdvancedStatefulSetTemplate != nil && old.AdvancedStatefulSetTemplate != nil:
		spec := t.AdvancedStatefulSetTemplate.Spec.DeepCopy()
		o := &old.AdvancedStatefulSetTemplate.Spec
		spec.Template, spec.UpdateStrategy, spec.Replicas = o.Template, o.UpdateStrategy, o.Replicas
		if !apiequality.Semantic.DeepEqual(*spec, *o) {
			return field.ErrorList{field.Forbidden(fldPath.Child("advancedStatefulSetTemplate", "spec"), msgSubsetStatefulSetImmutable)}
		}
	}
	return nil
}
