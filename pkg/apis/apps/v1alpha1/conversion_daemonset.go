package v1alpha1

import (
	"k8s.io/apimachinery/pkg/conversion"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/annotationfield"
)

// v1alpha1 differs from the hub (v1beta1's shape) in two places: partitioned scaling
// is the daemonset.kruise.io/progressive-create-pod annotation instead of
// spec.scaleStrategy, and status.updateRevision is called daemonSetHash.

// Convert_v1alpha1_DaemonSet_To_apps_DaemonSet reads the annotation into the hub's
// scale strategy.
func Convert_v1alpha1_DaemonSet_To_apps_DaemonSet(in *DaemonSet, out *apps.DaemonSet, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_DaemonSet_To_apps_DaemonSet(in, out, s); err != nil {
		return err
	}
	out.Spec.ScaleStrategy = nil
	if in.Annotations[ProgressiveCreatePodAnnotation] == "true" {
		out.Spec.ScaleStrategy = &apps.DaemonSetScaleStrategy{PartitionedScaling: true}
	}
	return nil
}

// Convert_apps_DaemonSet_To_v1alpha1_DaemonSet writes the hub's scale strategy as the
// annotation.
func Convert_apps_DaemonSet_To_v1alpha1_DaemonSet(in *apps.DaemonSet, out *DaemonSet, s conversion.Scope) error {
	if err := autoConvert_apps_DaemonSet_To_v1alpha1_DaemonSet(in, out, s); err != nil {
		return err
	}
	if ss := in.Spec.ScaleStrategy; ss != nil && ss.PartitionedScaling && out.Annotations[ProgressiveCreatePodAnnotation] != "true" {
		out.Annotations = annotationfield.Set(out.Annotations, ProgressiveCreatePodAnnotation, "true")
	}
	return nil
}

// Convert_apps_DaemonSetSpec_To_v1alpha1_DaemonSetSpec drops the scale strategy, which
// v1alpha1 keeps as an annotation (see Convert_apps_DaemonSet_To_v1alpha1_DaemonSet).
func Convert_apps_DaemonSetSpec_To_v1alpha1_DaemonSetSpec(in *apps.DaemonSetSpec, out *DaemonSetSpec, s conversion.Scope) error {
	return autoConvert_apps_DaemonSetSpec_To_v1alpha1_DaemonSetSpec(in, out, s)
}

// Convert_v1alpha1_DaemonSetStatus_To_apps_DaemonSetStatus renames daemonSetHash.
func Convert_v1alpha1_DaemonSetStatus_To_apps_DaemonSetStatus(in *DaemonSetStatus, out *apps.DaemonSetStatus, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_DaemonSetStatus_To_apps_DaemonSetStatus(in, out, s); err != nil {
		return err
	}
	out.UpdateRevision = in.DaemonSetHash
	return nil
}

// Convert_apps_DaemonSetStatus_To_v1alpha1_DaemonSetStatus renames updateRevision.
func Convert_apps_DaemonSetStatus_To_v1alpha1_DaemonSetStatus(in *apps.DaemonSetStatus, out *DaemonSetStatus, s conversion.Scope) error {
	if err := autoConvert_apps_DaemonSetStatus_To_v1alpha1_DaemonSetStatus(in, out, s); err != nil {
		return err
	}
	out.DaemonSetHash = in.UpdateRevision
	return nil
}
