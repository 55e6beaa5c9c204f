package validation

import (
	"errors"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// MaxNodeImageImages caps how many images one NodeImage may list (OpenKruise's limit).
const MaxNodeImageImages = 256

var supportedImagePullPhases = []apps.ImagePullPhase{
	apps.ImagePhaseWaiting, apps.ImagePhasePulling, apps.ImagePhaseSucceeded, apps.ImagePhaseFailed,
}

// ValidateNodeImage validates a NodeImage; its name is the node's.
func ValidateNodeImage(ni *apps.NodeImage) field.ErrorList {
	if ni == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil NodeImage"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&ni.ObjectMeta, false,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateNodeImageAnnotations(ni, nil)...)
	return append(allErrs, validateNodeImageSpec(&ni.Spec, field.NewPath("spec"))...)
}

// ValidateNodeImageUpdate validates an update of a NodeImage's spec.
func ValidateNodeImageUpdate(ni, old *apps.NodeImage) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ni.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateNodeImageAnnotations(ni, old)...)
	return append(allErrs, validateNodeImageSpec(&ni.Spec, field.NewPath("spec"))...)
}

// validateNodeImageAnnotations refuses the annotation v1alpha1 reads carry the
// v1beta1-only fields in. Conversion from v1alpha1 turns it into those fields and
// removes it, so on the internal object it can only be a client's own (sent through
// v1beta1), which v1alpha1 readers would otherwise get as if the server had written
// it. An update that
// leaves an already stored value as it was passes, so objects stored before this rule
// stay writable.
func validateNodeImageAnnotations(ni, old *apps.NodeImage) field.ErrorList {
	v, ok := ni.Annotations[apps.NodeImageV1beta1FieldsAnnotation]
	if !ok {
		return nil
	}
	if old != nil {
		if ov, had := old.Annotations[apps.NodeImageV1beta1FieldsAnnotation]; had && ov == v {
			return nil
		}
	}
	return field.ErrorList{field.Forbidden(
		field.NewPath("metadata", "annotations").Key(apps.NodeImageV1beta1FieldsAnnotation),
		"set by the server when a NodeImage is read as v1alpha1; set status.waiting and spec.images[*].tags[*].pullSecrets through v1beta1 instead")}
}

func validateNodeImageSpec(spec *apps.NodeImageSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	images := fldPath.Child("images")
	if len(spec.Images) > MaxNodeImageImages {
		allErrs = append(allErrs, field.TooMany(images, len(spec.Images), MaxNodeImageImages))
	}
	for _, name := range sets.List(sets.KeySet(spec.Images)) {
		img := spec.Images[name]
		p := images.Key(name)
		allErrs = append(allErrs, validateImageName(name, p)...)
		allErrs = append(allErrs, validateReferenceObjects(img.PullSecrets, p.Child("pullSecrets"))...)
		if len(img.Tags) == 0 {
			allErrs = append(allErrs, field.Required(p.Child("tags"), "an image needs at least one tag"))
		}
		seen := sets.New[string]()
		for i := range img.Tags {
			allErrs = append(allErrs, validateImageTagSpec(&img.Tags[i], seen, p.Child("tags").Index(i))...)
		}
	}
	return allErrs
}

func validateImageTagSpec(t *apps.ImageTagSpec, seen sets.Set[string], fldPath *field.Path) field.ErrorList {
	allErrs := validateImageTag(t.Tag, fldPath.Child("tag"))
	if seen.Has(t.Tag) {
		allErrs = append(allErrs, field.Duplicate(fldPath.Child("tag"), t.Tag))
	}
	seen.Insert(t.Tag)
	allErrs = append(allErrs, validateReferenceObjects(t.PullSecrets, fldPath.Child("pullSecrets"))...)
	if t.Version < 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("version"), t.Version, "must be greater than or equal to 0"))
	}
	if pp := t.PullPolicy; pp != nil {
		p := fldPath.Child("pullPolicy")
		allErrs = append(allErrs, validatePullBounds(pp.TimeoutSeconds, pp.BackoffLimit, p)...)
		allErrs = append(allErrs, validateNonnegative32(pp.TTLSecondsAfterFinished, p.Child("ttlSecondsAfterFinished"))...)
		allErrs = append(allErrs, validatePositive64(pp.ActiveDeadlineSeconds, p.Child("activeDeadlineSeconds"))...)
	}
	return append(allErrs, validateImagePullPolicy(t.ImagePullPolicy, fldPath.Child("imagePullPolicy"))...)
}

// ValidateNodeImageStatusUpdate validates what a node daemon reports.
func ValidateNodeImageStatusUpdate(ni, old *apps.NodeImage) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&ni.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	st, p := &ni.Status, field.NewPath("status")
	allErrs = append(allErrs, validateCounters([]counter{
		{"desired", st.Desired}, {"succeeded", st.Succeeded}, {"failed", st.Failed}, {"pulling", st.Pulling},
	}, p)...)
	for _, name := range sets.List(sets.KeySet(st.ImageStatuses)) {
		for i, t := range st.ImageStatuses[name].Tags {
			tp := p.Child("imageStatuses").Key(name).Child("tags").Index(i)
			if !phaseIn(t.Phase, supportedImagePullPhases) {
				allErrs = append(allErrs, field.NotSupported(tp.Child("phase"), t.Phase, supportedImagePullPhases))
			}
			if t.Progress < 0 || t.Progress > 100 {
				allErrs = append(allErrs, field.Invalid(tp.Child("progress"), t.Progress, "must be between 0 and 100"))
			}
		}
	}
	return allErrs
}

func phaseIn[T ~string](v T, allowed []T) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

// validateReferenceObjects requires both parts of every pull secret reference.
func validateReferenceObjects(refs []apps.ReferenceObject, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i, s := range refs {
		sp := fldPath.Index(i)
		if s.Namespace == "" {
			allErrs = append(allErrs, field.Required(sp.Child("namespace"), ""))
		}
		if s.Name == "" {
			allErrs = append(allErrs, field.Required(sp.Child("name"), ""))
		}
	}
	return allErrs
}
