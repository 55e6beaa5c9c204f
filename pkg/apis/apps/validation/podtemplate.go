package validation

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/core"
	k8scorev1 "k8s.io/kubernetes/pkg/apis/core/v1"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
)

// workloadTemplate is what a workload owns besides its pod template that affects how
// the template is validated.
type workloadTemplate struct {
	// kind names the workload in messages ("CloneSet", "StatefulSet").
	kind     string
	selector *metav1.LabelSelector
	template *corev1.PodTemplateSpec
	// oldTemplate is the stored template on update, nil on create. It relaxes checks
	// the stored object already failed (kube's validation ratcheting).
	oldTemplate *corev1.PodTemplateSpec
	// claims are mounted into every pod as volumes named after each claim template.
	claims []corev1.PersistentVolumeClaim
	// controllerSetsIdentity: hostname and subdomain are overwritten by the
	// controller (StatefulSet), so whatever the template says is not validated.
	controllerSetsIdentity bool
}

// validateSelector checks that a workload selector is present, well formed and not empty.
func validateSelector(selector *metav1.LabelSelector, kind string, fldPath *field.Path) field.ErrorList {
	if selector == nil {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	allErrs := metav1validation.ValidateLabelSelector(selector,
		metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: false}, fldPath)
	if len(selector.MatchLabels)+len(selector.MatchExpressions) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, selector, fmt.Sprintf("empty selector is invalid for %s", kind)))
	}
	return allErrs
}

// validateSelectorAndTemplate checks spec.selector and spec.template of a workload:
// the selector must select the template's labels, and the template must be a valid
// pod template (by kube's own rules, on kube's internal type) that restarts always
// and never times out.
func validateSelectorAndTemplate(w workloadTemplate, specPath *field.Path) field.ErrorList {
	selectorPath := specPath.Child("selector")
	templatePath := specPath.Child("template")

	allErrs := validateSelector(w.selector, w.kind, selectorPath)
	if w.template == nil {
		return append(allErrs, field.Required(templatePath, ""))
	}

	if w.selector != nil {
		if selector, err := metav1.LabelSelectorAsSelector(w.selector); err == nil && !selector.Empty() {
			if !selector.Matches(labels.Set(w.template.Labels)) {
				allErrs = append(allErrs, field.Invalid(templatePath.Child("metadata", "labels"), w.template.Labels,
					"selector does not match template labels"))
			}
		}
		// A selector that does not parse has been reported by validateSelector.
	}

	coreTemplate, err := toCoreTemplate(w.template)
	if err != nil {
		return append(allErrs, field.InternalError(templatePath, err))
	}
	var oldCoreTemplate *core.PodTemplateSpec
	if w.oldTemplate != nil {
		if oldCoreTemplate, err = toCoreTemplate(w.oldTemplate); err != nil {
			return append(allErrs, field.InternalError(templatePath, err))
		}
	}
	if w.controllerSetsIdentity {
		coreTemplate.Spec.Hostname = ""
		coreTemplate.Spec.Subdomain = ""
	}
	coreTemplate.Spec.Volumes = withClaimVolumes(coreTemplate.Spec.Volumes, w.claims)

	opts := podutil.GetValidationOptionsFromPodTemplate(coreTemplate, oldCoreTemplate)
	allErrs = append(allErrs, corevalidation.ValidatePodTemplateSpec(coreTemplate, templatePath, opts)...)

	// ValidatePodTemplateSpec already requires a restart policy and accepts
	// OnFailure/Never; a workload only accepts Always.
	if rp := w.template.Spec.RestartPolicy; rp != "" && rp != corev1.RestartPolicyAlways {
		allErrs = append(allErrs, field.NotSupported(templatePath.Child("spec", "restartPolicy"), rp,
			[]corev1.RestartPolicy{corev1.RestartPolicyAlways}))
	}
	if w.template.Spec.ActiveDeadlineSeconds != nil {
		allErrs = append(allErrs, field.Forbidden(templatePath.Child("spec", "activeDeadlineSeconds"),
			fmt.Sprintf("activeDeadlineSeconds in %s is not supported", w.kind)))
	}
	return allErrs
}

// toCoreTemplate converts a copy of t to kube's internal type.
func toCoreTemplate(t *corev1.PodTemplateSpec) (*core.PodTemplateSpec, error) {
	out := &core.PodTemplateSpec{}
	if err := k8scorev1.Convert_v1_PodTemplateSpec_To_core_PodTemplateSpec(t.DeepCopy(), out, nil); err != nil {
		return nil, fmt.Errorf("converting the pod template: %w", err)
	}
	return out, nil
}

// withClaimVolumes returns the pod volumes as the controller builds them: a volume
// named after a claim template is replaced by that claim (in place, so error indexes
// still point at the user's list), and the remaining claims are appended in order.
func withClaimVolumes(volumes []core.Volume, claims []corev1.PersistentVolumeClaim) []core.Volume {
	if len(claims) == 0 {
		return volumes
	}
	claimVolume := func(name string) core.Volume {
		return core.Volume{
			Name: name,
			VolumeSource: core.VolumeSource{
				PersistentVolumeClaim: &core.PersistentVolumeClaimVolumeSource{ClaimName: name},
			},
		}
	}
	claimNames := make(map[string]bool, len(claims))
	for i := range claims {
		claimNames[claims[i].Name] = true
	}
	out := make([]core.Volume, 0, len(volumes)+len(claims))
	placed := make(map[string]bool, len(claims))
	for _, v := range volumes {
		if claimNames[v.Name] && !placed[v.Name] {
			out = append(out, claimVolume(v.Name))
			placed[v.Name] = true
			continue
		}
		out = append(out, v)
	}
	for i := range claims {
		name := claims[i].Name
		// An unnamed claim is reported once, by validateVolumeClaimTemplates.
		if name != "" && !placed[name] {
			out = append(out, claimVolume(name))
			placed[name] = true
		}
	}
	return out
}

const msgInPlaceOnly = "only image changes are allowed with InPlaceOnly: " +
	"in spec.template.spec only containers[*].image may change (template labels and annotations may change too)"

// validateInPlaceOnlyTemplateUpdate allows, between old and new pod template specs,
// only changes of existing containers' images, as OpenKruise does for InPlaceOnly.
// Template metadata is not compared: OpenKruise patches labels and annotations in place.
func validateInPlaceOnlyTemplateUpdate(newTemplate, oldTemplate *corev1.PodTemplateSpec, fldPath *field.Path) field.ErrorList {
	if apiequality.Semantic.DeepEqual(newTemplate.Spec, oldTemplate.Spec) {
		return nil
	}
	if len(newTemplate.Spec.Containers) == len(oldTemplate.Spec.Containers) {
		masked := newTemplate.Spec.DeepCopy()
		for i := range masked.Containers {
			masked.Containers[i].Image = oldTemplate.Spec.Containers[i].Image
		}
		if apiequality.Semantic.DeepEqual(*masked, oldTemplate.Spec) {
			return nil
		}
	}
	return field.ErrorList{field.Forbidden(fldPath, msgInPlaceOnly)}
}
