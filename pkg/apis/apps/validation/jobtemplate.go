package validation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
)

// jobRestartPolicies are the restart policies of pods that run to completion.
var jobRestartPolicies = []corev1.RestartPolicy{corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever}

// validateJobPodTemplate checks the pod template of a run-to-completion kind
// (BroadcastJob): a valid pod template by kube's rules whose pods end, i.e. whose
// restartPolicy is OnFailure or Never. There is no selector: the controller owns
// its pods by owner reference. oldTemplate (nil on create) ratchets kube's checks.
func validateJobPodTemplate(template, oldTemplate *corev1.PodTemplateSpec, fldPath *field.Path) field.ErrorList {
	coreTemplate, err := toCoreTemplate(template)
	if err != nil {
		return field.ErrorList{field.InternalError(fldPath, err)}
	}
	var oldCoreTemplate *core.PodTemplateSpec
	if oldTemplate != nil {
		if oldCoreTemplate, err = toCoreTemplate(oldTemplate); err != nil {
			return field.ErrorList{field.InternalError(fldPath, err)}
		}
	}
	opts := podutil.GetValidationOptionsFromPodTemplate(coreTemplate, oldCoreTemplate)
	allErrs := corevalidation.ValidatePodTemplateSpec(coreTemplate, fldPath, opts)
	// kube accepts Always in a pod template; a job's pods must end.
	if rp := template.Spec.RestartPolicy; rp == corev1.RestartPolicyAlways {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("spec", "restartPolicy"), rp, jobRestartPolicies))
	}
	return allErrs
}
