package validation

import (
	"fmt"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// MaxImageListPullJobImages caps the images of one ImageListPullJob (OpenKruise's
// limit): each becomes an ImagePullJob of its own.
const MaxImageListPullJobImages = 255

// validatePullJobDeadline: an ImagePullJob's deadline must leave a pull its whole
// timeout, or the job fails while a pull it started may still succeed (OpenKruise's rule;
// its ImageListPullJob has no such rule, so neither has ours).
func validatePullJobDeadline(t *apps.ImagePullJobTemplate, fldPath *field.Path) field.ErrorList {
	c := t.CompletionPolicy
	if c.Type != apps.Always || c.ActiveDeadlineSeconds == nil || *c.ActiveDeadlineSeconds <= 0 {
		return nil
	}
	timeout := int64(apps.DefaultImagePullTimeoutSeconds)
	if t.PullPolicy != nil && t.PullPolicy.TimeoutSeconds != nil {
		timeout = int64(*t.PullPolicy.TimeoutSeconds)
	}
	if *c.ActiveDeadlineSeconds < timeout {
		return field.ErrorList{field.Invalid(fldPath.Child("completionPolicy", "activeDeadlineSeconds"), *c.ActiveDeadlineSeconds,
			fmt.Sprintf("must be at least pullPolicy.timeoutSeconds (%d): a pull may take that long", timeout))}
	}
	return nil
}

// validatePullJobDeadlineUpdate applies validatePullJobDeadline to an update (ratchet).
func validatePullJobDeadlineUpdate(t, old *apps.ImagePullJobTemplate, fldPath *field.Path) field.ErrorList {
	changed := !apiequality.Semantic.DeepEqual(t.CompletionPolicy, old.CompletionPolicy) ||
		!apiequality.Semantic.DeepEqual(t.PullPolicy, old.PullPolicy)
	return ratchet(validatePullJobDeadline(t, fldPath), validatePullJobDeadline(old, fldPath), changed)
}

func validateImageListCount(images []string, fldPath *field.Path) field.ErrorList {
	if len(images) > MaxImageListPullJobImages {
		return field.ErrorList{field.TooMany(fldPath.Child("images"), len(images), MaxImageListPullJobImages)}
	}
	return nil
}

// validateImageListCountUpdate applies validateImageListCount to an update (ratchet).
func validateImageListCountUpdate(images, old []string, fldPath *field.Path) field.ErrorList {
	return ratchet(validateImageListCount(images, fldPath), validateImageListCount(old, fldPath),
		!apiequality.Semantic.DeepEqual(images, old))
}
