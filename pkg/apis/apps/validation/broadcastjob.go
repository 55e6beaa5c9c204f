package validation

import (
	"errors"

	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

var supportedFailurePolicies = []apps.FailurePolicyType{
	apps.FailurePolicyTypeContinue, apps.FailurePolicyTypeFailFast, apps.FailurePolicyTypePause,
}

// ValidateBroadcastJob validates a new BroadcastJob.
func ValidateBroadcastJob(job *apps.BroadcastJob) field.ErrorList {
	if job == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil BroadcastJob"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&job.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateDerivedNames(job.Name, field.NewPath("metadata", "name"), broadcastJobPods)...)
	allErrs = append(allErrs, validateNoDotInName("BroadcastJob", job.Name, field.NewPath("metadata", "name"))...)
	return append(allErrs, validateBroadcastJobSpec(&job.Spec, nil, field.NewPath("spec"))...)
}

// ValidateBroadcastJobUpdate validates an update of a BroadcastJob. As in OpenKruise
// the spec may change (e.g. paused, parallelism); the new spec must be valid.
func ValidateBroadcastJobUpdate(job, old *apps.BroadcastJob) field.ErrorList {
	if job == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil BroadcastJob"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(allErrs, validateBroadcastJobSpec(&job.Spec, &old.Spec, field.NewPath("spec"))...)
}

// ValidateBroadcastJobStatusUpdate validates what the controller reports: no
// negative counts.
func ValidateBroadcastJobStatusUpdate(job, old *apps.BroadcastJob) field.ErrorList {
	if job == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil BroadcastJob"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	st := &job.Status
	return append(allErrs, validateCounters([]counter{
		{"active", st.Active}, {"succeeded", st.Succeeded}, {"failed", st.Failed}, {"desired", st.Desired},
	}, field.NewPath("status"))...)
}

// validateBroadcastJobSpec checks a BroadcastJob spec; oldSpec is nil on create.
// AdvancedCronJob's broadcastJobTemplate is checked by the same rules.
func validateBroadcastJobSpec(spec, oldSpec *apps.BroadcastJobSpec, fldPath *field.Path) field.ErrorList {
	var oldTemplate *corev1.PodTemplateSpec
	if oldSpec != nil {
		oldTemplate = &oldSpec.Template
	}
	allErrs := validateJobPodTemplate(&spec.Template, oldTemplate, fldPath.Child("template"))
	allErrs = append(allErrs, validateBroadcastJobPodLabels(&spec.Template, oldTemplate, fldPath.Child("template", "metadata", "labels"))...)
	// A percentage above 100% is harmless (it caps nothing), as OpenKruise accepts it.
	allErrs = append(allErrs, validateOptionalIntOrPercent(spec.Parallelism, false, fldPath.Child("parallelism"))...)
	allErrs = append(allErrs, validateCompletionPolicy(&spec.CompletionPolicy, validateNonnegative64, fldPath.Child("completionPolicy"))...)
	return append(allErrs, validateFailurePolicy(&spec.FailurePolicy, fldPath.Child("failurePolicy"))...)
}

func validateFailurePolicy(p *apps.FailurePolicy, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	switch p.Type {
	case apps.FailurePolicyTypeContinue, apps.FailurePolicyTypeFailFast, apps.FailurePolicyTypePause:
	case "":
		allErrs = append(allErrs, field.Required(fldPath.Child("type"), ""))
	default:
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("type"), p.Type, supportedFailurePolicies))
	}
	return append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(p.RestartLimit), fldPath.Child("restartLimit"))...)
}

// validateNonnegative64 checks an optional duration that must be >= 0 when set.
func validateNonnegative64(v *int64, fldPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	return apimachineryvalidation.ValidateNonnegativeField(*v, fldPath)
}

// broadcastJobPodLabels are the labels the controller puts on each of a job's pods
// (its name and UID; the UID one selects them).
var broadcastJobPodLabels = []string{apps.BroadcastJobNameLabel, apps.BroadcastJobControllerUIDLabel}

// validateBroadcastJobPodLabels refuses a pod template that sets a label the controller
// sets, as OpenKruise does. On update only a changed value is refused (a stored job
// keeps what it has).
func validateBroadcastJobPodLabels(template, oldTemplate *corev1.PodTemplateSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, key := range broadcastJobPodLabels {
		v := template.Labels[key]
		if v == "" || (oldTemplate != nil && oldTemplate.Labels[key] == v) {
			continue
		}
		allErrs = append(allErrs, field.Forbidden(fldPath.Key(key), "set by the BroadcastJob controller on each pod"))
	}
	return allErrs
}
