package v1alpha1

import (
	"k8s.io/apimachinery/pkg/conversion"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// The hub's ImageListPullJob template spec opts out of generated conversion (v1beta1
// carries this version's spec, which conversion-gen cannot reach from there), so
// both versions convert it by hand.

// Convert_v1alpha1_ImageListPullJobTemplateSpec_To_apps_ImageListPullJobTemplateSpec converts metadata and spec.
func Convert_v1alpha1_ImageListPullJobTemplateSpec_To_apps_ImageListPullJobTemplateSpec(in *ImageListPullJobTemplateSpec, out *apps.ImageListPullJobTemplateSpec, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_ImageListPullJobTemplateSpec_To_apps_ImageListPullJobTemplateSpec(in, out, s); err != nil {
		return err
	}
	return Convert_v1alpha1_ImageListPullJobSpec_To_apps_ImageListPullJobSpec(&in.Spec, &out.Spec, s)
}

// Convert_apps_ImageListPullJobTemplateSpec_To_v1alpha1_ImageListPullJobTemplateSpec converts metadata and spec.
func Convert_apps_ImageListPullJobTemplateSpec_To_v1alpha1_ImageListPullJobTemplateSpec(in *apps.ImageListPullJobTemplateSpec, out *ImageListPullJobTemplateSpec, s conversion.Scope) error {
	if err := autoConvert_apps_ImageListPullJobTemplateSpec_To_v1alpha1_ImageListPullJobTemplateSpec(in, out, s); err != nil {
		return err
	}
	return Convert_apps_ImageListPullJobSpec_To_v1alpha1_ImageListPullJobSpec(&in.Spec, &out.Spec, s)
}
