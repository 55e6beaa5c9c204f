package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// NodeImage lists the images the node daemon of one node (the object's name) keeps
// pulled, and reports how each pull went. The controller creates one per Node.
type NodeImage struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec NodeImageSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status NodeImageStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// NodeImageSpec is the set of images to pull on the node.
type NodeImageSpec struct {
	// Images maps an image name (without tag) to the tags to pull; at most 256 names.
	// +optional
	Images map[string]ImageSpec `json:"images,omitempty" protobuf:"bytes,1,rep,name=images"`
}

// ImageSpec is what to pull of one image.
type ImageSpec struct {
	// PullSecrets are secrets (namespace/name) whose registry credentials the pull uses.
	// +optional
	// +listType=atomic
	PullSecrets []ReferenceObject `json:"pullSecrets,omitempty" protobuf:"bytes,1,rep,name=pullSecrets"`
	// Tags are the versions of the image to pull.
	// +listType=map
	// +listMapKey=tag
	Tags []ImageTagSpec `json:"tags" protobuf:"bytes,2,rep,name=tags"`
	// SandboxConfig is metadata passed to the runtime's PullImage call.
	// +optional
	SandboxConfig *SandboxConfig `json:"sandboxConfig,omitempty" protobuf:"bytes,3,opt,name=sandboxConfig"`
}

// ReferenceObject names an object by namespace and name ("<namespace>/<name>").
type ReferenceObject struct {
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,1,opt,name=namespace"`
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,2,opt,name=name"`
}

// ImageTagSpec is one tag to pull.
type ImageTagSpec struct {
	// Tag is the image tag.
	Tag string `json:"tag" protobuf:"bytes,1,opt,name=tag"`
	// CreatedAt is when the tag was added.
	// +optional
	CreatedAt *metav1.Time `json:"createdAt,omitempty" protobuf:"bytes,2,opt,name=createdAt"`
	// PullPolicy bounds the pull; defaults apply when unset.
	// +optional
	PullPolicy *ImageTagPullPolicy `json:"pullPolicy,omitempty" protobuf:"bytes,3,opt,name=pullPolicy"`
	// OwnerReferences are the jobs that asked for this tag; the tag goes when the last leaves.
	// +optional
	// +listType=atomic
	OwnerReferences []corev1.ObjectReference `json:"ownerReferences,omitempty" protobuf:"bytes,4,rep,name=ownerReferences"`
	// Version changes when the tag must be pulled again; the daemon reports the version it handled.
	// +optional
	Version int64 `json:"version,omitempty" protobuf:"varint,5,opt,name=version"`
	// ImagePullPolicy is Always or IfNotPresent (default).
	// +optional
	ImagePullPolicy ImagePullPolicy `json:"imagePullPolicy,omitempty" protobuf:"bytes,6,opt,name=imagePullPolicy,casttype=ImagePullPolicy"`
	// PullSecrets are secrets (namespace/name) for this tag alone, used before the
	// image's own. This field is Kruise Native's: OpenKruise's v1beta1 keeps pull
	// secrets on the image only (spec.images[].pullSecrets, also served here).
	// +optional
	// +listType=atomic
	PullSecrets []ReferenceObject `json:"pullSecrets,omitempty" protobuf:"bytes,7,rep,name=pullSecrets"`
}

// ImageTagPullPolicy bounds one tag's pull.
type ImageTagPullPolicy struct {
	// TimeoutSeconds bounds each attempt. Defaults to 600.
	// +optional
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty" protobuf:"varint,1,opt,name=timeoutSeconds"`
	// BackoffLimit is how many retries follow a failed attempt. Defaults to 3.
	// +optional
	BackoffLimit *int32 `json:"backoffLimit,omitempty" protobuf:"varint,2,opt,name=backoffLimit"`
	// TTLSecondsAfterFinished removes the tag this long after its pull finished.
	// +optional
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty" protobuf:"varint,3,opt,name=ttlSecondsAfterFinished"`
	// ActiveDeadlineSeconds bounds the whole pull, retries included.
	// +optional
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty" protobuf:"varint,4,opt,name=activeDeadlineSeconds"`
}

// NodeImageStatus reports the pulls on the node.
type NodeImageStatus struct {
	// Desired is the number of tags in spec.
	Desired int32 `json:"desired" protobuf:"varint,1,opt,name=desired"`
	// Succeeded is the number of tags pulled.
	// +optional
	Succeeded int32 `json:"succeeded" protobuf:"varint,2,opt,name=succeeded"`
	// Failed is the number of tags whose pull failed.
	// +optional
	Failed int32 `json:"failed" protobuf:"varint,3,opt,name=failed"`
	// Pulling is the number of tags not finished yet.
	// +optional
	Pulling int32 `json:"pulling" protobuf:"varint,4,opt,name=pulling"`
	// Waiting is the number of tags whose pull has not started: the daemon has them
	// queued behind the pulls it runs at once.
	// +optional
	Waiting int32 `json:"waiting" protobuf:"varint,7,opt,name=waiting"`
	// ImageStatuses are the per-tag results, by image name.
	// +optional
	ImageStatuses map[string]ImageStatus `json:"imageStatuses,omitempty" protobuf:"bytes,5,rep,name=imageStatuses"`
	// FirstSyncStatus records when the node first finished every pull.
	// +optional
	FirstSyncStatus *SyncStatus `json:"firstSyncStatus,omitempty" protobuf:"bytes,6,opt,name=firstSyncStatus"`
}

// ImageStatus is the pull status of one image's tags.
type ImageStatus struct {
	// +listType=map
	// +listMapKey=tag
	Tags []ImageTagStatus `json:"tags" protobuf:"bytes,1,rep,name=tags"`
}

// ImageTagStatus is the pull status of one tag.
type ImageTagStatus struct {
	Tag   string         `json:"tag" protobuf:"bytes,1,opt,name=tag"`
	Phase ImagePullPhase `json:"phase" protobuf:"bytes,2,opt,name=phase,casttype=ImagePullPhase"`
	// Progress is 0-100; it may go back when a pull is retried.
	// +optional
	Progress int32 `json:"progress,omitempty" protobuf:"varint,3,opt,name=progress"`
	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty" protobuf:"bytes,4,opt,name=startTime"`
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty" protobuf:"bytes,5,opt,name=completionTime"`
	// Version is the spec version this status is about.
	// +optional
	Version int64 `json:"version,omitempty" protobuf:"varint,6,opt,name=version"`
	// ImageID is the runtime's ID of the pulled image.
	// +optional
	ImageID string `json:"imageID,omitempty" protobuf:"bytes,7,opt,name=imageID"`
	// Message explains a failure (the runtime's error and the attempts made).
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,8,opt,name=message"`
}

// ImagePullPhase is the phase of one tag's pull.
type ImagePullPhase string

const (
	ImagePhaseWaiting   ImagePullPhase = "Waiting"
	ImagePhasePulling   ImagePullPhase = "Pulling"
	ImagePhaseSucceeded ImagePullPhase = "Succeeded"
	ImagePhaseFailed    ImagePullPhase = "Failed"
)

// SyncStatus summarises the node's first complete round of pulls.
type SyncStatus struct {
	// +optional
	SyncAt metav1.Time `json:"syncAt,omitempty" protobuf:"bytes,1,opt,name=syncAt"`
	// +optional
	Status SyncStatusPhase `json:"status,omitempty" protobuf:"bytes,2,opt,name=status,casttype=SyncStatusPhase"`
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
}

// SyncStatusPhase is Succeeded or Failed.
type SyncStatusPhase string

const (
	SyncStatusSucceeded SyncStatusPhase = "Succeeded"
	SyncStatusFailed    SyncStatusPhase = "Failed"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// NodeImageList is a list of NodeImages.
type NodeImageList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []NodeImage `json:"items" protobuf:"bytes,2,rep,name=items"`
}
