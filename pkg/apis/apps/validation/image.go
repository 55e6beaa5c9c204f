package validation

import (
	"fmt"

	"github.com/distribution/reference"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

var supportedImagePullPolicies = []apps.ImagePullPolicy{apps.PullAlways, apps.PullIfNotPresent}

// validateImageReference checks a reference to pull ("nginx:1.9.1", "nginx"). Digests
// are refused: NodeImages list images by tag, as OpenKruise's do.
func validateImageReference(image string, fldPath *field.Path) field.ErrorList {
	if image == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	named, err := reference.ParseNormalizedNamed(image)
	if err != nil {
		return field.ErrorList{field.Invalid(fldPath, image, fmt.Sprintf("not a valid image reference: %v", err))}
	}
	if _, digested := named.(reference.Digested); digested {
		return field.ErrorList{field.Invalid(fldPath, image, "digests are not supported: name the image by tag")}
	}
	return nil
}

// validateImageName checks an image name without tag or digest (a NodeImage key).
func validateImageName(name string, fldPath *field.Path) field.ErrorList {
	named, err := reference.ParseNormalizedNamed(name)
	if err != nil {
		return field.ErrorList{field.Invalid(fldPath, name, fmt.Sprintf("not a valid image name: %v", err))}
	}
	if _, tagged := named.(reference.Tagged); tagged {
		return field.ErrorList{field.Invalid(fldPath, name, "must not contain a tag: tags are listed under tags")}
	}
	if _, digested := named.(reference.Digested); digested {
		return field.ErrorList{field.Invalid(fldPath, name, "must not contain a digest")}
	}
	return nil
}

// validateImageTag checks a tag the way registries accept them.
func validateImageTag(tag string, fldPath *field.Path) field.ErrorList {
	if tag == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	if !reference.TagRegexp.MatchString(tag) || len(reference.TagRegexp.FindString(tag)) != len(tag) {
		return field.ErrorList{field.Invalid(fldPath, tag, "must be at most 128 of [A-Za-z0-9_.-], not starting with '.' or '-'")}
	}
	return nil
}

func validateImagePullPolicy(p apps.ImagePullPolicy, fldPath *field.Path) field.ErrorList {
	if p == "" {
		return nil
	}
	for _, s := range supportedImagePullPolicies {
		if p == s {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(fldPath, p, supportedImagePullPolicies)}
}

// validatePullBounds checks a pull's timeout (> 0) and retry count (>= 0).
func validatePullBounds(timeout, backoff *int32, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if timeout != nil && *timeout <= 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("timeoutSeconds"), *timeout, "must be greater than 0"))
	}
	if backoff != nil {
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(*backoff), fldPath.Child("backoffLimit"))...)
	}
	return allErrs
}

// validatePositive64 checks an optional duration that must be > 0 when set.
func validatePositive64(v *int64, fldPath *field.Path) field.ErrorList {
	if v != nil && *v <= 0 {
		return field.ErrorList{field.Invalid(fldPath, *v, "must be greater than 0")}
	}
	return nil
}

// validateNonnegative32 checks an optional count or duration that must be >= 0 when set.
func validateNonnegative32(v *int32, fldPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	return apimachineryvalidation.ValidateNonnegativeField(int64(*v), fldPath)
}
