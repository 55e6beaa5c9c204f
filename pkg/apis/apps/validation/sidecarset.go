package validation

import (
	"encoding/json"
	"errors"
	"fmt"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

const sidecarSetKind = "SidecarSet"

var (
	supportedSidecarSetUpdateTypes = []apps.SidecarSetUpdateStrategyType{
		apps.RollingUpdateSidecarSetStrategyType, apps.NotUpdateSidecarSetStrategyType,
	}
	supportedInjectRevisionPolicies = []apps.SidecarSetInjectRevisionPolicy{
		apps.AlwaysSidecarSetInjectRevisionPolicy, apps.PartialSidecarSetInjectRevisionPolicy,
	}
	supportedPatchPolicies = []apps.SidecarSetPatchPolicyType{
		apps.SidecarSetRetainPatchPolicy, apps.SidecarSetOverwritePatchPolicy, apps.SidecarSetMergePatchJSONPatchPolicy,
	}
)

// ValidateSidecarSet validates a new SidecarSet. Its name becomes part of its
// revisions' names and of pod annotation keys, so it must be a DNS label.
func ValidateSidecarSet(ss *apps.SidecarSet) field.ErrorList {
	if ss == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil SidecarSet"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&ss.ObjectMeta, false,
		apimachineryvalidation.NameIsDNSLabel, field.NewPath("metadata"))
	return append(allErrs, validateSidecarSetSpec(&ss.Spec, nil, field.NewPath("spec"))...)
}

// ValidateSidecarSetUpdate validates an update: the new spec as a whole, and each
// sidecar keeps its upgrade type (injected pods are laid out for it: a hot-upgraded
// sidecar runs as two containers).
func ValidateSidecarSetUpdate(ss, old *apps.SidecarSet) field.ErrorList {
	specPath := field.NewPath("spec")
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ss.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateSidecarSetSpec(&ss.Spec, &old.Spec, specPath)...)
	allErrs = append(allErrs, validateUpgradeTypesUnchanged(ss.Spec.InitContainers, old.Spec.InitContainers, specPath.Child("initContainers"))...)
	allErrs = append(allErrs, validateUpgradeTypesUnchanged(ss.Spec.Containers, old.Spec.Containers, specPath.Child("containers"))...)
	return allErrs
}

func validateSidecarSetSpec(spec, oldSpec *apps.SidecarSetSpec, fldPath *field.Path) field.ErrorList {
	allErrs := validateSelector(spec.Selector, sidecarSetKind, fldPath.Child("selector"))
	if spec.Namespace != "" {
		for _, msg := range apimachineryvalidation.ValidateNamespaceName(spec.Namespace, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("namespace"), spec.Namespace, msg))
		}
	}
	if spec.NamespaceSelector != nil {
		if spec.Namespace != "" {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("namespaceSelector"),
				"may not be set together with namespace: use one or the other"))
		}
		allErrs = append(allErrs, validateSelector(spec.NamespaceSelector, sidecarSetKind, fldPath.Child("namespaceSelector"))...)
	}
	allErrs = append(allErrs, validateSidecarSetPodParts(spec, oldSpec, fldPath)...)
	for i, s := range spec.ImagePullSecrets {
		// kube lets a pod name an empty secret; a SidecarSet adding one is a mistake.
		if s.Name == "" {
			allErrs = append(allErrs, field.Required(fldPath.Child("imagePullSecrets").Index(i).Child("name"), ""))
		}
	}
	allErrs = append(allErrs, validateSidecarSetUpdateStrategy(&spec.UpdateStrategy, fldPath.Child("updateStrategy"))...)
	allErrs = append(allErrs, validateSidecarSetInjectionStrategy(&spec.InjectionStrategy, fldPath.Child("injectionStrategy"))...)
	allErrs = append(allErrs, validateNonnegativeOptional(spec.RevisionHistoryLimit, fldPath.Child("revisionHistoryLimit"))...)
	allErrs = append(allErrs, validatePatchPodMetadata(spec.PatchPodMetadata, fldPath.Child("patchPodMetadata"))...)
	return allErrs
}

// validateSidecarSetUpdateStrategy checks the upgrade parameters. Partition and a
// canary selector both say which pods keep the old sidecars, in ways that do not
// compose (a count of matched pods against a label query), so a running rollout uses
// one of them; a paused one may hold both while the user switches from one to the other.
func validateSidecarSetUpdateStrategy(s *apps.SidecarSetUpdateStrategy, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	switch s.Type {
	case "":
		allErrs = append(allErrs, field.Required(fldPath.Child("type"), ""))
	case apps.RollingUpdateSidecarSetStrategyType, apps.NotUpdateSidecarSetStrategyType:
	default:
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("type"), s.Type, supportedSidecarSetUpdateTypes))
	}
	if s.Selector != nil {
		allErrs = append(allErrs, validateSelector(s.Selector, sidecarSetKind, fldPath.Child("selector"))...)
	}
	allErrs = append(allErrs, validateOptionalIntOrPercent(s.Partition, true, fldPath.Child("partition"))...)
	maxUnavailablePath := fldPath.Child("maxUnavailable")
	allErrs = append(allErrs, validateOptionalIntOrPercent(s.MaxUnavailable, true, maxUnavailablePath)...)
	if s.MaxUnavailable != nil && isZeroIntOrPercent(*s.MaxUnavailable) {
		allErrs = append(allErrs, field.Invalid(maxUnavailablePath, s.MaxUnavailable.String(),
			"may not be 0: the upgrade could never take a pod"))
	}
	if PartitionAndSelectorConflict(s) && !s.Paused {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("partition"), MsgPartitionWithSelector))
	}
	allErrs = append(allErrs, validatePriorityStrategy(s.PriorityStrategy, fldPath.Child("priorityStrategy"))...)
	allErrs = append(allErrs, validateScatterStrategy(s.ScatterStrategy, fldPath.Child("scatterStrategy"))...)
	return allErrs
}

// MsgPartitionWithSelector explains why partition and updateStrategy.selector exclude each other.
const MsgPartitionWithSelector = "partition and selector cannot be used together in a running rollout: " +
	"a canary selector already says which pods are upgraded; set partition to 0 or remove the selector " +
	"(both may stay while updateStrategy.paused is true)"

// PartitionAndSelectorConflict reports a RollingUpdate with both a non-zero partition
// and a canary selector. The registry warns about it while the rollout is paused.
func PartitionAndSelectorConflict(s *apps.SidecarSetUpdateStrategy) bool {
	return s.Type == apps.RollingUpdateSidecarSetStrategyType && s.Selector != nil &&
		s.Partition != nil && !isZeroIntOrPercent(*s.Partition)
}

func validateSidecarSetInjectionStrategy(s *apps.SidecarSetInjectionStrategy, fldPath *field.Path) field.ErrorList {
	r := s.Revision
	if r == nil {
		return nil
	}
	var allErrs field.ErrorList
	revPath := fldPath.Child("revision")
	if r.CustomVersion == nil && r.RevisionName == nil {
		allErrs = append(allErrs, field.Required(revPath, "customVersion or revisionName must name the revision to inject"))
	}
	if r.CustomVersion != nil {
		if *r.CustomVersion == "" {
			allErrs = append(allErrs, field.Required(revPath.Child("customVersion"), ""))
		} else {
			// It is matched against a label value of the revisions.
			for _, msg := range utilvalidation.IsValidLabelValue(*r.CustomVersion) {
				allErrs = append(allErrs, field.Invalid(revPath.Child("customVersion"), *r.CustomVersion, msg))
			}
		}
	}
	if r.RevisionName != nil {
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(*r.RevisionName, false) {
			allErrs = append(allErrs, field.Invalid(revPath.Child("revisionName"), *r.RevisionName, msg))
		}
	}
	if !phaseIn(r.Policy, supportedInjectRevisionPolicies) {
		allErrs = append(allErrs, field.NotSupported(revPath.Child("policy"), r.Policy, supportedInjectRevisionPolicies))
	}
	return allErrs
}

// validatePatchPodMetadata checks the annotations patched into pods: valid keys, each
// key in one entry only, a known policy, and JSON objects where they are merged.
func validatePatchPodMetadata(patches []apps.SidecarSetPatchPodMetadata, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	seen := sets.New[string]()
	for i, p := range patches {
		pp := fldPath.Index(i)
		annotationsPath := pp.Child("annotations")
		if len(p.Annotations) == 0 {
			allErrs = append(allErrs, field.Required(annotationsPath, "an entry must patch at least one annotation"))
		}
		allErrs = append(allErrs, apimachineryvalidation.ValidateAnnotations(p.Annotations, annotationsPath)...)
		if !phaseIn(p.PatchPolicy, supportedPatchPolicies) {
			allErrs = append(allErrs, field.NotSupported(pp.Child("patchPolicy"), p.PatchPolicy, supportedPatchPolicies))
		}
		for _, key := range sets.List(sets.KeySet(p.Annotations)) {
			if seen.Has(key) {
				allErrs = append(allErrs, field.Duplicate(annotationsPath.Key(key), key))
			}
			seen.Insert(key)
			if p.PatchPolicy == apps.SidecarSetMergePatchJSONPatchPolicy {
				var obj map[string]interface{}
				if err := json.Unmarshal([]byte(p.Annotations[key]), &obj); err != nil {
					allErrs = append(allErrs, field.Invalid(annotationsPath.Key(key), p.Annotations[key],
						fmt.Sprintf("must be a JSON object with MergePatchJson: %v", err)))
				}
			}
		}
	}
	return allErrs
}

// validateUpgradeTypesUnchanged rejects a sidecar whose upgrade type changed.
func validateUpgradeTypesUnchanged(sidecars, old []apps.SidecarContainer, fldPath *field.Path) field.ErrorList {
	oldTypes := make(map[string]apps.SidecarContainerUpgradeType, len(old))
	for _, c := range old {
		oldTypes[c.Name] = c.UpgradeStrategy.UpgradeType
	}
	var allErrs field.ErrorList
	for i, c := range sidecars {
		was, ok := oldTypes[c.Name]
		if ok && was != "" && c.UpgradeStrategy.UpgradeType != was {
			allErrs = append(allErrs, field.Forbidden(fldPath.Index(i).Child("upgradeStrategy", "upgradeType"),
				fmt.Sprintf("the upgrade type of container %q is immutable (was %s): injected pods are laid out for it", c.Name, was)))
		}
	}
	return allErrs
}

// SidecarSetWarnings are what a user should know about an accepted SidecarSet: a
// rollout paused with both partition and a canary selector cannot be resumed as is,
// and volumes with dots in their names are injected under another name.
func SidecarSetWarnings(ss *apps.SidecarSet) []string {
	var warnings []string
	if s := &ss.Spec.UpdateStrategy; s.Paused && PartitionAndSelectorConflict(s) {
		warnings = append(warnings, "spec.updateStrategy: "+MsgPartitionWithSelector)
	}
	for i, v := range ss.Spec.Volumes {
		if podName := pub.PodVolumeName(v.Name); podName != v.Name {
			warnings = append(warnings, fmt.Sprintf("spec.volumes[%d].name: %q is not a valid pod volume name; "+
				"pods get it (and the sidecars' mounts of it) as %q", i, v.Name, podName))
		}
	}
	return warnings
}

// ValidateSidecarSetStatusUpdate validates what the controller reports.
func ValidateSidecarSetStatusUpdate(ss, old *apps.SidecarSet) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ss.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	st, p := &ss.Status, field.NewPath("status")
	matched := counter{"matchedPods", st.MatchedPods}
	updated := counter{"updatedPods", st.UpdatedPods}
	ready := counter{"readyPods", st.ReadyPods}
	updatedReady := counter{"updatedReadyPods", st.UpdatedReadyPods}
	allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(st.ObservedGeneration, p.Child("observedGeneration"))...)
	allErrs = append(allErrs, validateCounters([]counter{matched, updated, ready, updatedReady}, p)...)
	allErrs = append(allErrs, validateAtMost(updated, matched, p)...)
	allErrs = append(allErrs, validateAtMost(ready, matched, p)...)
	allErrs = append(allErrs, validateAtMost(updatedReady, updated, p)...)
	allErrs = append(allErrs, validateAtMost(updatedReady, ready, p)...)
	allErrs = append(allErrs, validateNonnegativeOptional(st.CollisionCount, p.Child("collisionCount"))...)
	allErrs = append(allErrs, validateCollisionCountUpdate(st.CollisionCount, old.Status.CollisionCount, p.Child("collisionCount"))...)
	return allErrs
}
