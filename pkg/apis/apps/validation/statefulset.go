package validation

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

const statefulSetKind = "StatefulSet"

// msgStatefulSetImmutable names every StatefulSet spec field an update may change.
const msgStatefulSetImmutable = "updates to statefulset spec for fields other than 'replicas', 'ordinals', " +
	"'template', 'updateStrategy', 'reserveOrdinals', 'lifecycle', 'scaleStrategy', 'revisionHistoryLimit', " +
	"'persistentVolumeClaimRetentionPolicy', 'volumeClaimTemplates' and 'volumeClaimUpdateStrategy' are forbidden"

var (
	supportedPodManagementPolicies = []appsv1.PodManagementPolicyType{
		appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement,
	}
	supportedStatefulSetUpdateTypes = []appsv1.StatefulSetUpdateStrategyType{
		appsv1.RollingUpdateStatefulSetStrategyType, appsv1.OnDeleteStatefulSetStrategyType,
	}
	supportedPodUpdatePolicies = []apps.PodUpdateStrategyType{
		apps.RecreatePodUpdateStrategyType, apps.InPlaceIfPossiblePodUpdateStrategyType, apps.InPlaceOnlyPodUpdateStrategyType,
	}
	supportedRetentionPolicies = []apps.PersistentVolumeClaimRetentionPolicyType{
		apps.RetainPersistentVolumeClaimRetentionPolicyType, apps.DeletePersistentVolumeClaimRetentionPolicyType,
	}
	supportedVolumeClaimUpdateTypes = []apps.VolumeClaimUpdateStrategyType{
		apps.OnPodRollingUpdateVolumeClaimUpdateStrategyType, apps.OnPVCDeleteVolumeClaimUpdateStrategyType,
	}

	reserveOrdinalRange = regexp.MustCompile(`^([0-9]+)-([0-9]+)$`)
)

// statefulSetSpecOptions relax checks of fields an update did not touch, so objects
// stored under older rules stay updatable (as kube does for StatefulSets).
type statefulSetSpecOptions struct {
	old *apps.StatefulSetSpec
}

func (o statefulSetSpecOptions) serviceNameUnchanged(name string) bool {
	return o.old != nil && o.old.ServiceName == name
}

// ValidateStatefulSet validates a new Advanced StatefulSet.
func ValidateStatefulSet(ss *apps.StatefulSet) field.ErrorList {
	if ss == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil StatefulSet"))}
	}
	// Pod names are <name>-<ordinal> and pod hostnames, so the name is a DNS label.
	allErrs := apimachineryvalidation.ValidateObjectMeta(&ss.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSLabel, field.NewPath("metadata"))
	allErrs = append(allErrs, validateWorkloadName(ss.Name, field.NewPath("metadata", "name"))...)
	allErrs = append(allErrs, validateStatefulSetSpec(&ss.Spec, statefulSetSpecOptions{}, field.NewPath("spec"))...)
	return allErrs
}

// ValidateStatefulSetUpdate validates an update of an Advanced StatefulSet.
func ValidateStatefulSetUpdate(ss, old *apps.StatefulSet) field.ErrorList {
	if ss == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil StatefulSet"))}
	}
	specPath := field.NewPath("spec")
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ss.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateStatefulSetSpec(&ss.Spec, statefulSetSpecOptions{old: &old.Spec}, specPath)...)
	allErrs = append(allErrs, validateStatefulSetSpecUpdate(&ss.Spec, &old.Spec, specPath)...)
	return allErrs
}

// ValidateStatefulSetStatusUpdate validates an update of an Advanced StatefulSet's status.
func ValidateStatefulSetStatusUpdate(ss, old *apps.StatefulSet) field.ErrorList {
	if ss == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil StatefulSet"))}
	}
	statusPath := field.NewPath("status")
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ss.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateStatefulSetStatus(&ss.Status, statusPath)...)
	allErrs = append(allErrs, validateCollisionCountUpdate(ss.Status.CollisionCount, old.Status.CollisionCount,
		statusPath.Child("collisionCount"))...)
	return allErrs
}

// ValidateStatefulSetRollback validates the body of a StatefulSet rollback request.
func ValidateStatefulSetRollback(r *apps.StatefulSetRollback) field.ErrorList {
	if r == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil StatefulSetRollback"))}
	}
	return validateRollback(r.Name, r.ToRevision, apimachineryvalidation.NameIsDNSLabel)
}

// validateStatefulSetSpec checks an Advanced StatefulSet spec.
func validateStatefulSetSpec(spec *apps.StatefulSetSpec, opts statefulSetSpecOptions, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList

	policyPath := fldPath.Child("podManagementPolicy")
	switch spec.PodManagementPolicy {
	case "":
		allErrs = append(allErrs, field.Required(policyPath, ""))
	case appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement:
	default:
		allErrs = append(allErrs, field.NotSupported(policyPath, spec.PodManagementPolicy, supportedPodManagementPolicies))
	}

	allErrs = append(allErrs, validateStatefulSetUpdateStrategy(spec, fldPath)...)
	allErrs = append(allErrs, validateReplicas(spec.Replicas, fldPath.Child("replicas"))...)
	allErrs = append(allErrs, validateNonnegativeOptional(spec.RevisionHistoryLimit, fldPath.Child("revisionHistoryLimit"))...)
	allErrs = append(allErrs, validateReserveOrdinals(spec.ReserveOrdinals, fldPath.Child("reserveOrdinals"))...)
	if spec.Ordinals != nil {
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(spec.Ordinals.Start),
			fldPath.Child("ordinals", "start"))...)
	}
	if spec.ScaleStrategy != nil && spec.ScaleStrategy.MaxUnavailable != nil {
		allErrs = append(allErrs, validateStatefulSetMaxUnavailable(*spec.ScaleStrategy.MaxUnavailable, spec.PodManagementPolicy,
			fldPath.Child("scaleStrategy", "maxUnavailable"))...)
	}
	if p := spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		retentionPath := fldPath.Child("persistentVolumeClaimRetentionPolicy")
		allErrs = append(allErrs, validateRetentionPolicyType(p.WhenDeleted, retentionPath.Child("whenDeleted"))...)
		allErrs = append(allErrs, validateRetentionPolicyType(p.WhenScaled, retentionPath.Child("whenScaled"))...)
	}
	switch t := spec.VolumeClaimUpdateStrategy.Type; t {
	case "", apps.OnPodRollingUpdateVolumeClaimUpdateStrategyType, apps.OnPVCDeleteVolumeClaimUpdateStrategyType:
	default:
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("volumeClaimUpdateStrategy", "type"), t, supportedVolumeClaimUpdateTypes))
	}
	// serviceName is immutable: tolerate a stored name from before this check.
	if spec.ServiceName != "" && !opts.serviceNameUnchanged(spec.ServiceName) {
		allErrs = append(allErrs, corevalidation.ValidateDNS1123Label(spec.ServiceName, fldPath.Child("serviceName"))...)
	}

	w := workloadTemplate{
		kind:                   statefulSetKind,
		selector:               spec.Selector,
		template:               &spec.Template,
		claims:                 spec.VolumeClaimTemplates,
		controllerSetsIdentity: true,
	}
	if opts.old != nil {
		w.oldTemplate = &opts.old.Template
	}
	allErrs = append(allErrs, validateSelectorAndTemplate(w, fldPath)...)
	if opts.old == nil || claimTemplatesChanged(spec.VolumeClaimTemplates, opts.old.VolumeClaimTemplates) {
		allErrs = append(allErrs, validateVolumeClaimTemplates(spec.VolumeClaimTemplates, fldPath.Child("volumeClaimTemplates"))...)
	}
	allErrs = append(allErrs, validateLifecycle(spec.Lifecycle, fldPath.Child("lifecycle"))...)
	return allErrs
}

// validateStatefulSetUpdateStrategy checks spec.updateStrategy.
func validateStatefulSetUpdateStrategy(spec *apps.StatefulSetSpec, specPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	s := &spec.UpdateStrategy
	fldPath := specPath.Child("updateStrategy")
	rollingPath := fldPath.Child("rollingUpdate")
	switch s.Type {
	case "":
		allErrs = append(allErrs, field.Required(fldPath.Child("type"), ""))
	case appsv1.OnDeleteStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			allErrs = append(allErrs, field.Forbidden(rollingPath,
				fmt.Sprintf("only allowed for updateStrategy type '%s'", appsv1.RollingUpdateStatefulSetStrategyType)))
		}
	case appsv1.RollingUpdateStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			allErrs = append(allErrs, validateRollingUpdateStatefulSet(spec, s.RollingUpdate, specPath)...)
		}
	default:
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("type"), s.Type, supportedStatefulSetUpdateTypes))
	}
	return allErrs
}

// validateRollingUpdateStatefulSet checks spec.updateStrategy.rollingUpdate.
func validateRollingUpdateStatefulSet(spec *apps.StatefulSetSpec, ru *apps.RollingUpdateStatefulSetStrategy, specPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	fldPath := specPath.Child("updateStrategy", "rollingUpdate")
	allErrs = append(allErrs, validateNonnegativeOptional(ru.Partition, fldPath.Child("partition"))...)

	if m := ru.MinReadySeconds; m != nil {
		minReadyPath := fldPath.Child("minReadySeconds")
		if *m < 0 {
			allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(*m), minReadyPath)...)
		} else if *m > apps.MaxMinReadySeconds {
			allErrs = append(allErrs, field.Invalid(minReadyPath, *m,
				fmt.Sprintf("must be no more than %d seconds", apps.MaxMinReadySeconds)))
		}
	}

	maxUnavailablePath := fldPath.Child("maxUnavailable")
	if ru.MaxUnavailable == nil {
		allErrs = append(allErrs, field.Required(maxUnavailablePath, ""))
	} else {
		allErrs = append(allErrs, validateStatefulSetMaxUnavailable(*ru.MaxUnavailable, spec.PodManagementPolicy, maxUnavailablePath)...)
	}

	policyPath := fldPath.Child("podUpdatePolicy")
	switch ru.PodUpdatePolicy {
	case "":
		allErrs = append(allErrs, field.Required(policyPath, ""))
	case apps.RecreatePodUpdateStrategyType:
	case apps.InPlaceIfPossiblePodUpdateStrategyType, apps.InPlaceOnlyPodUpdateStrategyType:
		if !hasReadinessGate(spec, pub.InPlaceUpdateReady) {
			allErrs = append(allErrs, field.Invalid(specPath.Child("template", "spec", "readinessGates"),
				spec.Template.Spec.ReadinessGates,
				fmt.Sprintf("must contain conditionType %s when podUpdatePolicy is %s", pub.InPlaceUpdateReady, ru.PodUpdatePolicy)))
		}
	default:
		allErrs = append(allErrs, field.NotSupported(policyPath, ru.PodUpdatePolicy, supportedPodUpdatePolicies))
	}

	if ru.UnorderedUpdate != nil {
		unorderedPath := fldPath.Child("unorderedUpdate")
		if spec.PodManagementPolicy != appsv1.ParallelPodManagement {
			allErrs = append(allErrs, field.Forbidden(unorderedPath,
				fmt.Sprintf("only allowed with podManagementPolicy '%s'", appsv1.ParallelPodManagement)))
		}
		allErrs = append(allErrs, validatePriorityStrategy(ru.UnorderedUpdate.PriorityStrategy, unorderedPath.Child("priorityStrategy"))...)
	}
	allErrs = append(allErrs, validateInPlaceUpdateStrategy(ru.InPlaceUpdateStrategy, fldPath.Child("inPlaceUpdateStrategy"))...)
	return allErrs
}

func hasReadinessGate(spec *apps.StatefulSetSpec, conditionType string) bool {
	for _, g := range spec.Template.Spec.ReadinessGates {
		if string(g.ConditionType) == conditionType {
			return true
		}
	}
	return false
}

// validateStatefulSetMaxUnavailable checks a maxUnavailable of an Advanced
// StatefulSet (rolling update or scaling): a valid int or percentage up to 100%,
// never 0, and anything but 1 only with Parallel pod management.
func validateStatefulSetMaxUnavailable(v intstr.IntOrString, policy appsv1.PodManagementPolicyType, fldPath *field.Path) field.ErrorList {
	allErrs := validateIntOrPercent(v, true, fldPath)
	if len(allErrs) > 0 {
		return allErrs
	}
	if isZeroIntOrPercent(v) {
		return field.ErrorList{field.Invalid(fldPath, v.String(), "cannot be 0")}
	}
	if policy != appsv1.ParallelPodManagement && (v.Type != intstr.Int || v.IntVal != 1) {
		allErrs = append(allErrs, field.Invalid(fldPath, v.String(),
			fmt.Sprintf("may only be 1 unless podManagementPolicy is '%s'", appsv1.ParallelPodManagement)))
	}
	return allErrs
}

// validateReserveOrdinals checks reserved ordinals: an ordinal >= 0 or a range "a-b" with a <= b.
func validateReserveOrdinals(ordinals []intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i, o := range ordinals {
		idxPath := fldPath.Index(i)
		switch o.Type {
		case intstr.Int:
			allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(o.IntVal), idxPath)...)
		case intstr.String:
			m := reserveOrdinalRange.FindStringSubmatch(o.StrVal)
			if m == nil {
				allErrs = append(allErrs, field.Invalid(idxPath, o.StrVal, "must be an ordinal or a range 'a-b' of ordinals (e.g. '3-5')"))
				continue
			}
			start, err1 := strconv.ParseInt(m[1], 10, 32)
			end, err2 := strconv.ParseInt(m[2], 10, 32)
			switch {
			case err1 != nil || err2 != nil:
				allErrs = append(allErrs, field.Invalid(idxPath, o.StrVal, "range bounds must be 32-bit ordinals"))
			case start > end:
				allErrs = append(allErrs, field.Invalid(idxPath, o.StrVal, "range start must not be greater than its end"))
			}
		default:
			allErrs = append(allErrs, field.Invalid(idxPath, o.String(), "must be an ordinal or a range 'a-b' of ordinals"))
		}
	}
	return allErrs
}

func validateRetentionPolicyType(t apps.PersistentVolumeClaimRetentionPolicyType, fldPath *field.Path) field.ErrorList {
	switch t {
	case apps.RetainPersistentVolumeClaimRetentionPolicyType, apps.DeletePersistentVolumeClaimRetentionPolicyType:
		return nil
	}
	return field.ErrorList{field.NotSupported(fldPath, t, supportedRetentionPolicies)}
}

// validateStatefulSetSpecUpdate checks what an update may change: not the selector,
// serviceName or podManagementPolicy; with InPlaceOnly nothing in the pod spec but
// images; with volumeClaimUpdateStrategy OnPodRollingUpdate only claim sizes.
func validateStatefulSetSpecUpdate(spec, oldSpec *apps.StatefulSetSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if !apiequality.Semantic.DeepEqual(spec.Selector, oldSpec.Selector) {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("selector"), msgStatefulSetImmutable))
	}
	if spec.ServiceName != oldSpec.ServiceName {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("serviceName"), msgStatefulSetImmutable))
	}
	if spec.PodManagementPolicy != oldSpec.PodManagementPolicy {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("podManagementPolicy"), msgStatefulSetImmutable))
	}

	// Catch fields added to the spec later that nobody declared mutable.
	rest := spec.DeepCopy()
	rest.Selector = oldSpec.Selector
	rest.ServiceName = oldSpec.ServiceName
	rest.PodManagementPolicy = oldSpec.PodManagementPolicy
	rest.Replicas = oldSpec.Replicas
	rest.Template = oldSpec.Template
	rest.VolumeClaimTemplates = oldSpec.VolumeClaimTemplates
	rest.VolumeClaimUpdateStrategy = oldSpec.VolumeClaimUpdateStrategy
	rest.UpdateStrategy = oldSpec.UpdateStrategy
	rest.RevisionHistoryLimit = oldSpec.RevisionHistoryLimit
	rest.ReserveOrdinals = oldSpec.ReserveOrdinals
	rest.Lifecycle = oldSpec.Lifecycle
	rest.ScaleStrategy = oldSpec.ScaleStrategy
	rest.PersistentVolumeClaimRetentionPolicy = oldSpec.PersistentVolumeClaimRetentionPolicy
	rest.Ordinals = oldSpec.Ordinals
	if !apiequality.Semantic.DeepEqual(*rest, *oldSpec) {
		allErrs = append(allErrs, field.Forbidden(fldPath, msgStatefulSetImmutable))
	}

	if ru := spec.UpdateStrategy.RollingUpdate; ru != nil && ru.PodUpdatePolicy == apps.InPlaceOnlyPodUpdateStrategyType {
		allErrs = append(allErrs, validateInPlaceOnlyTemplateUpdate(&spec.Template, &oldSpec.Template, fldPath.Child("template"))...)
	}
	if spec.VolumeClaimUpdateStrategy.Type == apps.OnPodRollingUpdateVolumeClaimUpdateStrategyType {
		allErrs = append(allErrs, validateClaimTemplatesResizeOnly(spec, oldSpec, fldPath.Child("volumeClaimTemplates"))...)
	}
	return allErrs
}
