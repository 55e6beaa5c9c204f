package manager

import (
	"k8s.io/component-base/featuregate"
)

// PreDownloadImageForInPlaceUpdate, OpenKruise's gate of the same name: during an
// in-place rollout, CloneSet and Advanced StatefulSet pre-download the new images on
// the nodes of the pods not yet updated (an ImagePullJob). Alpha and off, as upstream.
const PreDownloadImageForInPlaceUpdate featuregate.Feature = "PreDownloadImageForInPlaceUpdate"

// PreDownloadImageForDaemonSetUpdate, OpenKruise's gate of the same name: during a
// rollout, Advanced DaemonSet pre-downloads the new images on the nodes whose pods are
// not yet updated (an ImagePullJob). Alpha and off, as upstream.
const PreDownloadImageForDaemonSetUpdate featuregate.Feature = "PreDownloadImageForDaemonSetUpdate"

// InPlaceWorkloadVerticalScaling, OpenKruise's gate of the same name: a change of
// container cpu/memory requests or limits in a CloneSet, Advanced StatefulSet or
// Advanced DaemonSet template is an in-place update (InPlaceIfPossible/InPlaceOnly),
// applied through the pods' resize subresource, instead of a recreate. Alpha and off,
// as upstream.
const InPlaceWorkloadVerticalScaling featuregate.Feature = "InPlaceWorkloadVerticalScaling"

// SidecarTerminator, OpenKruise's gate of the same name: a restartPolicy Never or
// OnFailure pod whose main containers have finished is ended (phase from the main
// containers, condition SidecarTerminated), so its kubelet stops the sidecars marked
// KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT=true and its Job completes. Alpha and off, as
// upstream.
const SidecarTerminator featuregate.Feature = "SidecarTerminator"

// features are the gates kruise-controller knows (--feature-gates).
var features = map[featuregate.Feature]featuregate.FeatureSpec{
	PreDownloadImageForInPlaceUpdate:   {Default: false, PreRelease: featuregate.Alpha},
	PreDownloadImageForDaemonSetUpdate: {Default: false, PreRelease: featuregate.Alpha},
	InPlaceWorkloadVerticalScaling:     {Default: false, PreRelease: featuregate.Alpha},
	SidecarTerminator:                  {Default: false, PreRelease: featuregate.Alpha},
}

// newFeatureGate returns a gate that knows every feature of kruise-controller.
func newFeatureGate() featuregate.MutableFeatureGate {
	g := featuregate.NewFeatureGate()
	if err := g.Add(features); err != nil {
		panic(err) // a static table that does not load is a programming error
	}
	return g
}
