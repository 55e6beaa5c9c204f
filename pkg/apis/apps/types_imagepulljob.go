package apps

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ImagePullJob pre-pulls one image on a set of nodes by adding it to their NodeImages.
type ImagePullJob struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   ImagePullJobSpec
	Status ImagePullJobStatus
}

// ImagePullJobSpec is the image to pull and where and how to pull it.
type ImagePullJobSpec struct {
	// Image is the image to pull ("name:tag"; no tag means latest).
	Image string
	ImagePullJobTemplate
}

// DefaultImagePullTimeoutSeconds is how long a pull may take when its policy names no
// timeout (OpenKruise's default; the versions default to it).
const DefaultImagePullTimeoutSeconds int32 = 600

// ImagePullJobTemplate is what an ImagePullJob and an ImageListPullJob share.
type ImagePullJobTemplate struct {
	// PullSecrets are names of secrets in the job's namespace holding registry credentials.
	PullSecrets []string
	// Selector picks nodes by name or labels; nil means every node.
	Selector *ImagePullJobNodeSelector
	// PodSelector picks the nodes where matching pods run. Excludes selector.
	PodSelector *ImagePullJobPodSelector
	// Parallelism is how many nodes pull at once (a number or a percent of the selected
	// nodes). Defaults to 1; 0 pauses the job.
	Parallelism *intstr.IntOrString
	// PullPolicy bounds each node's pull.
	PullPolicy *PullPolicy
	// CompletionPolicy says when the job ends (Always) or that it keeps pulling (Never).
	CompletionPolicy CompletionPolicy
	// SandboxConfig is metadata passed to the runtime's PullImage call.
	SandboxConfig *SandboxConfig
	// ImagePullPolicy is Always or IfNotPresent. Defaults to IfNotPresent.
	ImagePullPolicy ImagePullPolicy
}

// ImagePullPolicy says whether a present image is pulled again.
type ImagePullPolicy string

const (
	PullAlways       ImagePullPolicy = "Always"
	PullIfNotPresent ImagePullPolicy = "IfNotPresent"
)

// ImagePullJobNodeSelector selects nodes by names or by labels (not both).
type ImagePullJobNodeSelector struct {
	// Names are node names.
	Names []string
	metav1.LabelSelector
}

// ImagePullJobPodSelector selects the nodes where the matching pods run.
type ImagePullJobPodSelector struct {
	metav1.LabelSelector
}

// PullPolicy bounds a node's pull.
type PullPolicy struct {
	// TimeoutSeconds bounds each attempt. Defaults to 600.
	TimeoutSeconds *int32
	// BackoffLimit is how many retries follow a failed attempt. Defaults to 3.
	BackoffLimit *int32
}

// CompletionPolicy says when a job is complete.
type CompletionPolicy struct {
	// Type is Always (the job completes once every node finished or the deadline passed)
	// or Never (the job keeps its nodes pulled, re-pulling daily). Defaults to Always.
	Type CompletionPolicyType
	// ActiveDeadlineSeconds bounds the job from its start (Always only).
	ActiveDeadlineSeconds *int64
	// TTLSecondsAfterFinished deletes the job this long after it completed (Always only).
	TTLSecondsAfterFinished *int32
}

// CompletionPolicyType is Always or Never.
type CompletionPolicyType string

const (
	// Always: the job completes when every selected node finished, or at its deadline.
	Always CompletionPolicyType = "Always"
	// Never: the job never completes; it keeps the image pulled on matching nodes.
	Never CompletionPolicyType = "Never"
)

// SandboxConfig is metadata for the runtime's PullImage call.
type SandboxConfig struct {
	Labels      map[string]string
	Annotations map[string]string
}

// ImagePullJobStatus is the job's progress over its nodes.
type ImagePullJobStatus struct {
	// StartTime is when the controller first acted on the job.
	StartTime *metav1.Time
	// CompletionTime is when the job completed.
	CompletionTime *metav1.Time
	// Desired is the number of selected nodes.
	Desired int32
	// Active is the number of nodes pulling now.
	Active int32
	// Succeeded is the number of nodes that pulled the image.
	Succeeded int32
	// Failed is the number of nodes whose pull failed.
	Failed int32
	// Message summarises the state, e.g. why the job failed.
	Message string
	// FailedNodes are the nodes whose pull failed.
	FailedNodes []string
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ImagePullJobList is a list of ImagePullJobs.
type ImagePullJobList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []ImagePullJob
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ImageListPullJob pre-pulls a list of images: one ImagePullJob per image.
type ImageListPullJob struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   ImageListPullJobSpec
	Status ImageListPullJobStatus
}

// ImageListPullJobSpec is the images to pull and the template of each image's job.
type ImageListPullJobSpec struct {
	// Images are the images to pull.
	Images []string
	ImagePullJobTemplate
}

// ImageListPullJobStatus is the progress over the per-image jobs.
type ImageListPullJobStatus struct {
	StartTime      *metav1.Time
	CompletionTime *metav1.Time
	// Desired is the number of images.
	Desired int32
	// Active is the number of image jobs not completed.
	Active int32
	// Completed is the number of image jobs completed.
	Completed int32
	// Succeeded is the number of image jobs that succeeded on every node.
	Succeeded int32
	// FailedImageStatuses are the image jobs with failed nodes.
	FailedImageStatuses []FailedImageStatus
}

// FailedImageStatus is an image job with failed nodes.
type FailedImageStatus struct {
	ImagePullJob string
	Name         string
	Message      string
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ImageListPullJobList is a list of ImageListPullJobs.
type ImageListPullJobList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []ImageListPullJob
}
