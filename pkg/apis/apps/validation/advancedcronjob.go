package validation

import (
	"errors"
	"fmt"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/batch"
	k8sbatchv1 "k8s.io/kubernetes/pkg/apis/batch/v1"
	batchvalidation "k8s.io/kubernetes/pkg/apis/batch/validation"
	"k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

var supportedConcurrencyPolicies = []apps.ConcurrencyPolicy{
	apps.AllowConcurrent, apps.ForbidConcurrent, apps.ReplaceConcurrent,
}

// cronTemplates are the union members of spec.template, by JSON name.
var cronTemplates = []string{"jobTemplate", "broadcastJobTemplate", "imageListPullJobTemplate"}

// ValidateAdvancedCronJob validates a new AdvancedCronJob.
func ValidateAdvancedCronJob(acj *apps.AdvancedCronJob) field.ErrorList {
	if acj == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil AdvancedCronJob"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&acj.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateDerivedNames(acj.Name, field.NewPath("metadata", "name"), cronRunNames(&acj.Spec.Template)...)...)
	allErrs = append(allErrs, validateNoDotInName("AdvancedCronJob", acj.Name, field.NewPath("metadata", "name"))...)
	return append(allErrs, validateAdvancedCronJobSpec(&acj.Spec, nil, field.NewPath("spec"))...)
}

// ValidateAdvancedCronJobUpdate validates an update; the spec may change.
func ValidateAdvancedCronJobUpdate(acj, old *apps.AdvancedCronJob) field.ErrorList {
	if acj == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil AdvancedCronJob"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&acj.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	// As kube's CronJob, a stored name is not checked again (it may predate the rule),
	// unless the template makes it shorter (another kind of run, more indexes).
	if runs := cronRunNames(&acj.Spec.Template); longestName(runs) < longestName(cronRunNames(&old.Spec.Template)) {
		allErrs = append(allErrs, validateDerivedNames(acj.Name, field.NewPath("metadata", "name"), runs...)...)
	}
	return append(allErrs, validateAdvancedCronJobSpec(&acj.Spec, &old.Spec, field.NewPath("spec"))...)
}

// cronRunKind is the kind of run a template makes ("" unless exactly one is set).
func cronRunKind(t *apps.CronJobTemplate) apps.TemplateKind {
	switch {
	case t.JobTemplate != nil && t.BroadcastJobTemplate == nil && t.ImageListPullJobTemplate == nil:
		return apps.JobTemplate
	case t.JobTemplate == nil && t.BroadcastJobTemplate != nil && t.ImageListPullJobTemplate == nil:
		return apps.BroadcastJobTemplate
	case t.JobTemplate == nil && t.BroadcastJobTemplate == nil && t.ImageListPullJobTemplate != nil:
		return apps.ImageListPullJobTemplate
	}
	return ""
}

// cronRunNames are the names derived from an AdvancedCronJob's name through the runs
// its template makes, each named <name>-<scheduled Unix time>: the run's own name, and
// what the run derives from it. None when the template is refused on its own.
func cronRunNames(t *apps.CronJobTemplate) []derivedName {
	switch cronRunKind(t) {
	case apps.JobTemplate:
		return append([]derivedName{cronRuns("Job", maxJobNameLength, "a Job's name (its pods are labelled job-name=<its name>)")},
			indexedJobHostnames(&t.JobTemplate.Spec)...)
	case apps.BroadcastJobTemplate:
		return []derivedName{cronRuns("BroadcastJob", broadcastJobPods.longestName(), "a BroadcastJob's name ("+broadcastJobPods.what+")")}
	case apps.ImageListPullJobTemplate:
		return []derivedName{cronRuns("ImageListPullJob", imageListPullJobChildren.longestName(),
			"an ImageListPullJob's name ("+imageListPullJobChildren.what+")")}
	}
	return nil
}

// ValidateAdvancedCronJobStatusUpdate validates what the controller reports.
func ValidateAdvancedCronJobStatusUpdate(acj, old *apps.AdvancedCronJob) field.ErrorList {
	if acj == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil AdvancedCronJob"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&acj.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	switch t := acj.Status.Type; t {
	case "", apps.JobTemplate, apps.BroadcastJobTemplate, apps.ImageListPullJobTemplate:
	default:
		allErrs = append(allErrs, field.NotSupported(field.NewPath("status", "type"), t,
			[]apps.TemplateKind{apps.JobTemplate, apps.BroadcastJobTemplate, apps.ImageListPullJobTemplate}))
	}
	return allErrs
}

// validateAdvancedCronJobSpec checks a spec; oldSpec is nil on create. As for kube's
// CronJob, an unchanged time zone is not checked again (the zone database may have
// dropped it since) and a stored TZ= prefix may stay.
func validateAdvancedCronJobSpec(spec, oldSpec *apps.AdvancedCronJobSpec, fldPath *field.Path) field.ErrorList {
	allowTZ := oldSpec != nil && strings.Contains(oldSpec.Schedule, "TZ")
	allErrs := validateSchedule(spec.Schedule, allowTZ, spec.TimeZone, fldPath.Child("schedule"))
	if oldSpec == nil || !ptr.Equal(oldSpec.TimeZone, spec.TimeZone) {
		allErrs = append(allErrs, validateTimeZone(spec.TimeZone, fldPath.Child("timeZone"))...)
	}
	if spec.StartingDeadlineSeconds != nil {
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(*spec.StartingDeadlineSeconds, fldPath.Child("startingDeadlineSeconds"))...)
	}
	switch p := spec.ConcurrencyPolicy; p {
	case apps.AllowConcurrent, apps.ForbidConcurrent, apps.ReplaceConcurrent:
	case "":
		allErrs = append(allErrs, field.Required(fldPath.Child("concurrencyPolicy"), ""))
	default:
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("concurrencyPolicy"), p, supportedConcurrencyPolicies))
	}
	allErrs = append(allErrs, validateNonnegative32(spec.SuccessfulJobsHistoryLimit, fldPath.Child("successfulJobsHistoryLimit"))...)
	allErrs = append(allErrs, validateNonnegative32(spec.FailedJobsHistoryLimit, fldPath.Child("failedJobsHistoryLimit"))...)
	var oldTemplate *apps.CronJobTemplate
	if oldSpec != nil {
		oldTemplate = &oldSpec.Template
	}
	return append(allErrs, validateCronJobTemplate(&spec.Template, oldTemplate, fldPath.Child("template"))...)
}

// validateCronJobTemplate checks that exactly one run template is set, and that one
// by the rules of the kind it creates.
func validateCronJobTemplate(t, old *apps.CronJobTemplate, fldPath *field.Path) field.ErrorList {
	var set []string
	if t.JobTemplate != nil {
		set = append(set, "jobTemplate")
	}
	if t.BroadcastJobTemplate != nil {
		set = append(set, "broadcastJobTemplate")
	}
	if t.ImageListPullJobTemplate != nil {
		set = append(set, "imageListPullJobTemplate")
	}
	switch len(set) {
	case 0:
		return field.ErrorList{field.Required(fldPath, "one of "+strings.Join(cronTemplates, ", "))}
	case 1:
	default:
		return field.ErrorList{field.Invalid(fldPath, strings.Join(set, ", "),
			fmt.Sprintf("exactly one of %s may be set", strings.Join(cronTemplates, ", ")))}
	}

	var allErrs field.ErrorList
	if jt := t.JobTemplate; jt != nil {
		var oldJT *batchv1.JobTemplateSpec
		if old != nil {
			oldJT = old.JobTemplate
		}
		allErrs = append(allErrs, validateJobTemplate(jt, oldJT, fldPath.Child("jobTemplate"))...)
	}
	if bt := t.BroadcastJobTemplate; bt != nil {
		p := fldPath.Child("broadcastJobTemplate")
		allErrs = append(allErrs, validateTemplateMeta(bt.Labels, bt.Annotations, p.Child("metadata"))...)
		var oldSpec *apps.BroadcastJobSpec
		if old != nil && old.BroadcastJobTemplate != nil {
			oldSpec = &old.BroadcastJobTemplate.Spec
		}
		// The BroadcastJob is defaulted when it is created: check it as it will be.
		spec := bt.Spec.DeepCopy()
		if spec.CompletionPolicy.Type == "" {
			spec.CompletionPolicy.Type = apps.Always
		}
		if spec.FailurePolicy.Type == "" {
			spec.FailurePolicy.Type = apps.FailurePolicyTypeFailFast
		}
		allErrs = append(allErrs, validateBroadcastJobSpec(spec, oldSpec, p.Child("spec"))...)
	}
	if it := t.ImageListPullJobTemplate; it != nil {
		p := fldPath.Child("imageListPullJobTemplate")
		allErrs = append(allErrs, validateTemplateMeta(it.Labels, it.Annotations, p.Child("metadata"))...)
		allErrs = append(allErrs, validateImageListPullJobSpec(&it.Spec, p.Child("spec"))...)
		// Each run is an ImageListPullJob: a list it would refuse is refused here, not
		// at every run (ratcheted, as the ImageListPullJob's own rule).
		var oldImages []string
		if old != nil && old.ImageListPullJobTemplate != nil {
			oldImages = old.ImageListPullJobTemplate.Spec.Images
		}
		allErrs = append(allErrs, validateImageListCountUpdate(it.Spec.Images, oldImages, p.Child("spec"))...)
	}
	return allErrs
}

// validateTemplateMeta checks the labels and annotations a run will carry.
func validateTemplateMeta(labels, annotations map[string]string, fldPath *field.Path) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateAnnotations(annotations, fldPath.Child("annotations"))
	return append(allErrs, metav1validation.ValidateLabels(labels, fldPath.Child("labels"))...)
}

// validateJobTemplate checks a batch/v1 Job template by kube's own CronJob rules
// (restartPolicy OnFailure or Never, no selector, valid pod template), on kube's
// internal type.
func validateJobTemplate(jt, old *batchv1.JobTemplateSpec, fldPath *field.Path) field.ErrorList {
	in := &batch.JobTemplateSpec{}
	if err := k8sbatchv1.Convert_v1_JobTemplateSpec_To_batch_JobTemplateSpec(jt.DeepCopy(), in, nil); err != nil {
		return field.ErrorList{field.InternalError(fldPath, err)}
	}
	var oldIn *batch.JobTemplateSpec
	if old != nil {
		oldIn = &batch.JobTemplateSpec{}
		if err := k8sbatchv1.Convert_v1_JobTemplateSpec_To_batch_JobTemplateSpec(old.DeepCopy(), oldIn, nil); err != nil {
			return field.ErrorList{field.InternalError(fldPath, err)}
		}
	}
	var oldPodTemplate *core.PodTemplateSpec
	if oldIn != nil {
		oldPodTemplate = &oldIn.Spec.Template
	}
	opts := podutil.GetValidationOptionsFromPodTemplate(&in.Spec.Template, oldPodTemplate)
	return batchvalidation.ValidateJobTemplateSpec(in, fldPath, opts)
}
