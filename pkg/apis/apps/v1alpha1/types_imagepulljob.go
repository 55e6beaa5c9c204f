package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ImagePullJob pre-pulls one image on a set of nodes by adding it to their NodeImages.
type ImagePullJob struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec ImagePullJobSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status ImagePullJobStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ImagePullJobSpec is the image to pull and where and how to pull it.
type ImagePullJobSpec struct {
	// Image is the image to pull ("name:tag"; no tag means latest).
	Image                string `json:"image" protobuf:"bytes,1,opt,name=image"`
	ImagePullJobTemplate `json:",inline" protobuf:"bytes,2,opt,name=imagePullJobTemplate"`
}

// ImagePullJobTemplate is what an ImagePullJob and an ImageListPullJob share.
type ImagePullJobTemplate struct {
	// PullSecrets are names of secrets in the job's namespace holding registry credentials.
	// +optional
	// +listType=atomic
	PullSecrets []string `json:"pullSecrets,omitempty" protobuf:"bytes,1,rep,name=pullSecrets"`
	// Selector picks nodes by name or labels; nil means every node.
	// +optional
	Selector *ImagePullJobNodeSelector `json:"selector,omitempty" protobuf:"bytes,2,opt,name=selector"`
	// PodSelector picks the nodes where matching pods run. Excludes selector.
	// +optional
	PodSelector *ImagePullJobPodSelector `json:"podSelector,omitempty" protobuf:"bytes,3,opt,name=podSelector"`
	// Parallelism is how many nodes pull at once (a number or a percent of the selected
	// nodes). Defaults to 1; 0 pauses the job.
	// +optional
	// +default=1
	Parallelism *intstr.IntOrString `json:"parallelism,omitempty" protobuf:"bytes,4,opt,name=parallelism"`
	// PullPolicy bounds each node's pull.
	// +optional
	// +default={}
	PullPolicy *PullPolicy `json:"pullPolicy,omitempty" protobuf:"bytes,5,opt,name=pullPolicy"`
	// CompletionPolicy says when the job ends (Always) or that it keeps pulling (Never).
	// +optional
	CompletionPolicy CompletionPolicy `json:"completionPolicy" protobuf:"bytes,6,opt,name=completionPolicy"`
	// SandboxConfig is metadata passed to the runtime's PullImage call.
	// +optional
	SandboxConfig *SandboxConfig `json:"sandboxConfig,omitempty" protobuf:"bytes,7,opt,name=sandboxConfig"`
	// ImagePullPolicy is Always or IfNotPresent. Defaults to IfNotPresent.
	// +optional
	// +default="IfNotPresent"
	ImagePullPolicy ImagePullPolicy `json:"imagePullPolicy,omitempty" protobuf:"bytes,8,opt,name=imagePullPolicy,casttype=ImagePullPolicy"`
}

// ImagePullPolicy says whether a present image is pulled again.
// +enum
type ImagePullPolicy string

const (
	PullAlways       ImagePullPolicy = "Always"
	PullIfNotPresent ImagePullPolicy = "IfNotPresent"
)

// ImagePullJobNodeSelector selects nodes by names or by labels (not both).
type ImagePullJobNodeSelector struct {
	// Names are node names.
	// +optional
	// +listType=atomic
	Names []string `json:"names,omitempty" protobuf:"bytes,1,rep,name=names"`
	// +optional
	metav1.LabelSelector `json:",inline" protobuf:"bytes,2,opt,name=labelSelector"`
}

// ImagePullJobPodSelector selects the nodes where the matching pods run.
type ImagePullJobPodSelector struct {
	// +optional
	metav1.LabelSelector `json:",inline" protobuf:"bytes,1,opt,name=labelSelector"`
}

// PullPolicy bounds a node's pull.
type PullPolicy struct {
	// TimeoutSeconds bounds each attempt. Defaults to 600.
	// +optional
	// +default=600
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty" protobuf:"varint,1,opt,name=timeoutSeconds"`
	// BackoffLimit is how many retries follow a failed attempt. Defaults to 3.
	// +optional
	// +default=3
	BackoffLimit *int32 `json:"backoffLimit,omitempty" protobuf:"varint,2,opt,name=backoffLimit"`
}

// CompletionPolicy says when a job is complete.
type CompletionPolicy struct {
	// Type is Always (the job completes once every node finished or the deadline passed)
	// or Never (the job keeps its nodes pulled, re-pulling daily). Defaults to Always.
	// +optional
	// +default="Always"
	Type CompletionPolicyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=CompletionPolicyType"`
	// ActiveDeadlineSeconds bounds the job from its start (Always only).
	// +optional
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty" protobuf:"varint,2,opt,name=activeDeadlineSeconds"`
	// TTLSecondsAfterFinished deletes the job this long after it completed (Always only).
	// +optional
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty" protobuf:"varint,3,opt,name=ttlSecondsAfterFinished"`
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
	// +optional
	Labels map[string]string `json:"labels,omitempty" protobuf:"bytes,1,rep,name=labels"`
	// +optional
	Annotations map[string]string `json:"annotations,omitempty" protobuf:"bytes,2,rep,name=annotations"`
}

// ImagePullJobStatus is the job's progress over its nodes.
type ImagePullJobStatus struct {
	// StartTime is when the controller first acted on the job.
	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty" protobuf:"bytes,1,opt,name=startTime"`
	// CompletionTime is when the job completed.
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty" protobuf:"bytes,2,opt,name=completionTime"`
	// Desired is the number of selected nodes.
	Desired int32 `json:"desired" protobuf:"varint,3,opt,name=desired"`
	// Active is the number of nodes pulling now.
	// +optional
	Active int32 `json:"active" protobuf:"varint,4,opt,name=active"`
	// Succeeded is the number of nodes that pulled the image.
	// +optional
	Succeeded int32 `json:"succeeded" protobuf:"varint,5,opt,name=succeeded"`
	// Failed is the number of nodes whose pull failed.
	// +optional
	Failed int32 `json:"failed" protobuf:"varint,6,opt,name=failed"`
	// Message summarises the state, e.g. why the job failed.
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,7,opt,name=message"`
	// FailedNodes are the nodes whose pull failed.
	// +optional
	// +listType=atomic
	FailedNodes []string `json:"failedNodes,omitempty" protobuf:"bytes,8,rep,name=failedNodes"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ImagePullJobList is a list of ImagePullJobs.
type ImagePullJobList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ImagePullJob `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ImageListPullJob pre-pulls a list of images: one ImagePullJob per image.
type ImageListPullJob struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec ImageListPullJobSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status ImageListPullJobStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ImageListPullJobSpec is the images to pull and the template of each image's job.
type ImageListPullJobSpec struct {
	// Images are the images to pull.
	// +listType=atomic
	Images               []string `json:"images" protobuf:"bytes,1,rep,name=images"`
	ImagePullJobTemplate `json:",inline" protobuf:"bytes,2,opt,name=imagePullJobTemplate"`
}

// ImageListPullJobStatus is the progress over the per-image jobs.
type ImageListPullJobStatus struct {
	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty" protobuf:"bytes,1,opt,name=startTime"`
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty" protobuf:"bytes,2,opt,name=completionTime"`
	// Desired is the number of images.
	Desired int32 `json:"desired" protobuf:"varint,3,opt,name=desired"`
	// Active is the number of image jobs not completed.
	// +optional
	Active int32 `json:"active" protobuf:"varint,4,opt,name=active"`
	// Completed is the number of image jobs completed.
	// +optional
	Completed int32 `json:"completed" protobuf:"varint,5,opt,name=completed"`
	// Succeeded is the number of image jobs that succeeded on every node.
	// +optional
	Succeeded int32 `json:"succeeded" protobuf:"varint,6,opt,name=succeeded"`
	// FailedImageStatuses are the image jobs with failed nodes.
	// +optional
	// +listType=atomic
	FailedImageStatuses []FailedImageStatus `json:"failedImageStatuses,omitempty" protobuf:"bytes,7,rep,name=failedImageStatuses"`
}

// FailedImageStatus is an image job with failed nodes.
type FailedImageStatus struct {
	// +optional
	ImagePullJob string `json:"imagePullJob,omitempty" protobuf:"bytes,1,opt,name=imagePullJob"`
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,2,opt,name=name"`
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ImageListPullJobList is a list of ImageListPullJobs.
type ImageListPullJobList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ImageListPullJob `json:"items" protobuf:"bytes,2,rep,name=items"`
}
