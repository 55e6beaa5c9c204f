package pub

import (
	"k8s.io/apimachinery/pkg/util/intstr"
)

// InPlaceUpdateStrategy tunes in-place updates of pods.
type InPlaceUpdateStrategy struct {
	// GracePeriodSeconds is the time between marking a pod not ready (through the
	// InPlaceUpdateReady condition) and patching its images.
	// +optional
	GracePeriodSeconds int32 `json:"gracePeriodSeconds,omitempty" protobuf:"varint,1,opt,name=gracePeriodSeconds"`
	// ImagePreDownloadParallelism is how many nodes pull the new images at once before
	// the rollout reaches them.
	// +optional
	ImagePreDownloadParallelism *intstr.IntOrString `json:"imagePreDownloadParallelism,omitempty" protobuf:"bytes,2,opt,name=imagePreDownloadParallelism"`
	// ImagePreDownloadTimeoutSeconds bounds each image pre-download.
	// +optional
	ImagePreDownloadTimeoutSeconds *int32 `json:"imagePreDownloadTimeoutSeconds,omitempty" protobuf:"varint,3,opt,name=imagePreDownloadTimeoutSeconds"`
	// ImagePreDownloadMinUpdatedReadyPods is how many pods must be updated and ready
	// before images are pre-downloaded to the remaining nodes.
	// +optional
	ImagePreDownloadMinUpdatedReadyPods *int32 `json:"imagePreDownloadMinUpdatedReadyPods,omitempty" protobuf:"varint,4,opt,name=imagePreDownloadMinUpdatedReadyPods"`
}

const (
	// InPlaceUpdateReady is the pod condition (and readiness gate) that is False while
	// a pod is being updated in place.
	InPlaceUpdateReady = "InPlaceUpdateReady"
	// InPlaceUpdateStateKey is the pod annotation recording an in-place update in progress.
	InPlaceUpdateStateKey = "apps.kruise.io/inplace-update-state"
	// InPlaceUpdateGraceKey is the pod annotation holding a spec patch waiting out its grace period.
	InPlaceUpdateGraceKey = "apps.kruise.io/inplace-update-grace"

	// ImagePreDownloadParallelismKey and the keys below configure image pre-download on
	// v1alpha1 workloads by annotation.
	ImagePreDownloadParallelismKey         = "apps.kruise.io/image-predownload-parallelism"
	ImagePreDownloadTimeoutSecondsKey      = "apps.kruise.io/image-predownload-timeout-seconds"
	ImagePreDownloadMinUpdatedReadyPodsKey = "apps.kruise.io/image-predownload-min-updated-ready-pods"
	// ImagePreDownloadIgnoredKey turns image pre-download off: on a workload (annotation
	// or label) for all its rollouts, or, as OpenKruise reads it, as a label of the
	// update revision's ControllerRevision for that rollout only.
	ImagePreDownloadIgnoredKey = "apps.kruise.io/image-predownload-ignored"
)
