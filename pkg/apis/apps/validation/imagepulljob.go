package validation

import (
	"errors"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

var supportedCompletionPolicies = []apps.CompletionPolicyType{apps.Always, apps.Never}

// ValidateImagePullJob validates a new ImagePullJob.
func ValidateImagePullJob(job *apps.ImagePullJob) field.ErrorList {
	if job == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil ImagePullJob"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&job.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	allErrs = append(allErrs, validateImageReference(job.Spec.Image, spec.Child("image"))...)
	allErrs = append(allErrs, validatePullJobDeadline(&job.Spec.ImagePullJobTemplate, spec)...)
	return append(allErrs, validateImagePullJobTemplate(&job.Spec.ImagePullJobTemplate, spec)...)
}

// ValidateImagePullJobUpdate validates an update: the image of a job cannot change
// (nodes already hold it); everything else, e.g. parallelism, may.
func ValidateImagePullJobUpdate(job, old *apps.ImagePullJob) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	allErrs = append(allErrs, apimachineryvalidation.ValidateImmutableField(job.Spec.Image, old.Spec.Image, spec.Child("image"))...)
	allErrs = append(allErrs, validatePullJobDeadlineUpdate(&job.Spec.ImagePullJobTemplate, &old.Spec.ImagePullJobTemplate, spec)...)
	return append(allErrs, validateImagePullJobTemplate(&job.Spec.ImagePullJobTemplate, spec)...)
}

// ValidateImagePullJobStatusUpdate validates what the controller reports.
func ValidateImagePullJobStatusUpdate(job, old *apps.ImagePullJob) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	st := &job.Status
	return append(allErrs, validateCounters([]counter{
		{"desired", st.Desired}, {"active", st.Active}, {"succeeded", st.Succeeded}, {"failed", st.Failed},
	}, field.NewPath("status"))...)
}

// ValidateImageListPullJob validates a new ImageListPullJob.
func ValidateImageListPullJob(job *apps.ImageListPullJob) field.ErrorList {
	if job == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil ImageListPullJob"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&job.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateDerivedNames(job.Name, field.NewPath("metadata", "name"), imageListPullJobChildren)...)
	allErrs = append(allErrs, validateImageListCount(job.Spec.Images, field.NewPath("spec"))...)
	return append(allErrs, validateImageListPullJobSpec(&job.Spec, field.NewPath("spec"))...)
}

// ValidateImageListPullJobUpdate validates an update of an ImageListPullJob.
func ValidateImageListPullJobUpdate(job, old *apps.ImageListPullJob) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateImageListCountUpdate(job.Spec.Images, old.Spec.Images, field.NewPath("spec"))...)
	return append(allErrs, validateImageListPullJobSpec(&job.Spec, field.NewPath("spec"))...)
}

// ValidateImageListPullJobStatusUpdate validates what the controller reports.
func ValidateImageListPullJobStatusUpdate(job, old *apps.ImageListPullJob) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	st := &job.Status
	return append(allErrs, validateCounters([]counter{
		{"desired", st.Desired}, {"active", st.Active}, {"completed", st.Completed}, {"succeeded", st.Succeeded},
	}, field.NewPath("status"))...)
}

func validateImageListPullJobSpec(spec *apps.ImageListPullJobSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	images := fldPath.Child("images")
	if len(spec.Images) == 0 {
		allErrs = append(allErrs, field.Required(images, "at least one image"))
	}
	seen := sets.New[string]()
	for i, img := range spec.Images {
		allErrs = append(allErrs, validateImageReference(img, images.Index(i))...)
		if seen.Has(img) {
			allErrs = append(allErrs, field.Duplicate(images.Index(i), img))
		}
		seen.Insert(img)
	}
	return append(allErrs, validateImagePullJobTemplate(&spec.ImagePullJobTemplate, fldPath)...)
}

func validateImagePullJobTemplate(t *apps.ImagePullJobTemplate, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i, name := range t.PullSecrets {
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(name, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("pullSecrets").Index(i), name, msg))
		}
	}
	selOpts := metav1validation.LabelSelectorValidationOptions{}
	if s := t.Selector; s != nil {
		p := fldPath.Child("selector")
		hasLabels := len(s.MatchLabels) > 0 || len(s.MatchExpressions) > 0
		if len(s.Names) > 0 && hasLabels {
			allErrs = append(allErrs, field.Invalid(p, "names and matchLabels/matchExpressions",
				"names and a label selector are mutually exclusive: use one of them"))
		}
		seen := sets.New[string]()
		for i, n := range s.Names {
			np := p.Child("names").Index(i)
			for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(n, false) {
				allErrs = append(allErrs, field.Invalid(np, n, msg))
			}
			if seen.Has(n) {
				allErrs = append(allErrs, field.Duplicate(np, n))
			}
			seen.Insert(n)
		}
		allErrs = append(allErrs, metav1validation.ValidateLabelSelector(&s.LabelSelector, selOpts, p)...)
	}
	if s := t.PodSelector; s != nil {
		p := fldPath.Child("podSelector")
		if t.Selector != nil {
			allErrs = append(allErrs, field.Forbidden(p, "podSelector and selector are mutually exclusive: use one of them"))
		}
		allErrs = append(allErrs, metav1validation.ValidateLabelSelector(&s.LabelSelector, selOpts, p)...)
	}
	allErrs = append(allErrs, validateOptionalIntOrPercent(t.Parallelism, true, fldPath.Child("parallelism"))...)
	if pp := t.PullPolicy; pp != nil {
		allErrs = append(allErrs, validatePullBounds(pp.TimeoutSeconds, pp.BackoffLimit, fldPath.Child("pullPolicy"))...)
	}
	allErrs = append(allErrs, validateCompletionPolicy(&t.CompletionPolicy, validatePositive64, fldPath.Child("completionPolicy"))...)
	return append(allErrs, validateImagePullPolicy(t.ImagePullPolicy, fldPath.Child("imagePullPolicy"))...)
}

// validateCompletionPolicy: deadlines and TTLs only make sense for a job that ends.
// The deadline's bound differs by kind (an image pull job needs time to pull, a
// BroadcastJob accepts 0 as kube's Job does), so the caller passes its check.
func validateCompletionPolicy(c *apps.CompletionPolicy, deadline func(*int64, *field.Path) field.ErrorList, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	switch c.Type {
	case apps.Always:
		allErrs = append(allErrs, deadline(c.ActiveDeadlineSeconds, fldPath.Child("activeDeadlineSeconds"))...)
		allErrs = append(allErrs, validateNonnegative32(c.TTLSecondsAfterFinished, fldPath.Child("ttlSecondsAfterFinished"))...)
	case apps.Never:
		if c.ActiveDeadlineSeconds != nil {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("activeDeadlineSeconds"), "a job with completionPolicy Never never ends"))
		}
		if c.TTLSecondsAfterFinished != nil {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("ttlSecondsAfterFinished"), "a job with completionPolicy Never never ends"))
		}
	case "":
		allErrs = append(allErrs, field.Required(fldPath.Child("type"), ""))
	default:
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("type"), c.Type, supportedCompletionPolicies))
	}
	return allErrs
}
