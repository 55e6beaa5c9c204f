package v1beta1

import (
	"k8s.io/apimachinery/pkg/conversion"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// The ImageListPullJob template carries v1alpha1's spec (see
// ImageListPullJobTemplateSpec); conversion-gen does not look into another version's
// package, so the spec goes through v1alpha1's generated conversions here.

// Convert_v1beta1_ImageListPullJobTemplateSpec_To_apps_ImageListPullJobTemplateSpec converts the spec through v1alpha1.
func Convert_v1beta1_ImageListPullJobTemplateSpec_To_apps_ImageListPullJobTemplateSpec(in *ImageListPullJobTemplateSpec, out *apps.ImageListPullJobTemplateSpec, s conversion.Scope) error {
	if err := autoConvert_v1beta1_ImageListPullJobTemplateSpec_To_apps_ImageListPullJobTemplateSpec(in, out, s); err != nil {
		return err
	}
	return v1alpha1.Convert_v1alpha1_ImageListPullJobSpec_To_apps_ImageListPullJobSpec(&in.Spec, &out.Spec, s)
}

// Convert_apps_ImageListPullJobTemplateSpec_To_v1beta1_ImageListPullJobTemplateSpec converts the spec through v1alpha1.
func Convert_apps_ImageListPullJobTemplateSpec_To_v1beta1_ImageListPullJobTemplateSpec(in *apps.ImageListPullJobTemplateSpec, out *ImageListPullJobTemplateSpec, s conversion.Scope) error {
	if err := autoConvert_apps_ImageListPullJobTemplateSpec_To_v1beta1_ImageListPullJobTemplateSpec(in, out, s); err != nil {
		return err
	}
	return v1alpha1.Convert_apps_ImageListPullJobSpec_To_v1alpha1_ImageListPullJobSpec(&in.Spec, &out.Spec, s)
}
