package v1alpha1

import (
	"maps"

	"k8s.io/apimachinery/pkg/conversion"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// v1alpha1 has no scaleStrategy.excludePreparingDelete field: OpenKruise users set it
// with the apps.kruise.io/cloneset-scaling-exclude-preparing-delete label instead.

// Convert_v1alpha1_CloneSet_To_apps_CloneSet reads the label into the hub field.
func Convert_v1alpha1_CloneSet_To_apps_CloneSet(in *CloneSet, out *apps.CloneSet, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_CloneSet_To_apps_CloneSet(in, out, s); err != nil {
		return err
	}
	out.Spec.ScaleStrategy.ExcludePreparingDelete = in.Labels[ScalingExcludePreparingDeleteKey] == "true"
	return nil
}

// Convert_apps_CloneSet_To_v1alpha1_CloneSet writes the hub field as the label.
func Convert_apps_CloneSet_To_v1alpha1_CloneSet(in *apps.CloneSet, out *CloneSet, s conversion.Scope) error {
	if err := autoConvert_apps_CloneSet_To_v1alpha1_CloneSet(in, out, s); err != nil {
		return err
	}
	if in.Spec.ScaleStrategy.ExcludePreparingDelete && out.Labels[ScalingExcludePreparingDeleteKey] != "true" {
		// The generated conversion shares the label map with the input: copy before writing.
		labels := maps.Clone(out.Labels)
		if labels == nil {
			labels = map[string]string{}
		}
		labels[ScalingExcludePreparingDeleteKey] = "true"
		out.Labels = labels
	}
	return nil
}

// Convert_apps_CloneSetScaleStrategy_To_v1alpha1_CloneSetScaleStrategy drops the field
// v1alpha1 keeps as a label (see Convert_apps_CloneSet_To_v1alpha1_CloneSet).
func Convert_apps_CloneSetScaleStrategy_To_v1alpha1_CloneSetScaleStrategy(in *apps.CloneSetScaleStrategy, out *CloneSetScaleStrategy, s conversion.Scope) error {
	return autoConvert_apps_CloneSetScaleStrategy_To_v1alpha1_CloneSetScaleStrategy(in, out, s)
}
