package apps

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MaxNodeImageImages caps how many images one NodeImage may list.
const MaxNodeImageImages = 256

// NodeImageV1beta1FieldsAnnotation is where a NodeImage read as v1alpha1 carries the
// fields v1alpha1 has none for (status.waiting, the tags' pullSecrets); converting back
// moves it into those fields, so a stored object never has it and a client may not set it.
const NodeImageV1beta1FieldsAnnotation = "nodeimage.kruise-native.io/v1beta1-fields"

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// NodeImage lists the images the node daemon of one node (the object's name) keeps
// pulled, and reports how each pull went. The controller creates one per Node.
type NodeImage struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   NodeImageSpec
	Status NodeImageStatus
}

// NodeImageSpec is the set of images to pull on the node.
type NodeImageSpec struct {
	// Images maps an image name (without tag) to the tags to pull; at most 256 names.
	Images map[string]ImageSpec
}

// ImageSpec is what to pull of one image.
type ImageSpec struct {
	// PullSecrets are secrets (namespace/name) whose registry credentials the pull uses.
	PullSecrets []ReferenceObject
	// Tags are the versions of the image to pull.
	Tags []ImageTagSpec
	// SandboxConfig is metadata passed to the runtime's PullImage call.
	SandboxConfig *SandboxConfig
}

// ReferenceObject names an object by namespace and name ("<namespace>/<name>").
type ReferenceObject struct {
	Namespace string
	Name      string
}

// ImageTagSpec is one tag to pull.
type ImageTagSpec struct {
	// Tag is the image tag.
	Tag string
	// CreatedAt is when the tag was added.
	CreatedAt *metav1.Time
	// PullPolicy bounds the pull; defaults apply when unset.
	PullPolicy *ImageTagPullPolicy
	// OwnerReferences are the jobs that asked for this tag; the tag goes when the last leaves.
	OwnerReferences []corev1.ObjectReference
	// Version changes when the tag must be pulled again; the daemon reports the version it handled.
	Version int64
	// ImagePullPolicy is Always or IfNotPresent (default).
	ImagePullPolicy ImagePullPolicy
	// PullSecrets are secrets for this tag alone, tried before the image's (v1beta1).
	PullSecrets []ReferenceObject
}

// ImageTagPullPolicy bounds one tag's pull.
type ImageTagPullPolicy struct {
	// TimeoutSeconds bounds each attempt. Defaults to 600.
	TimeoutSeconds *int32
	// BackoffLimit is how many retries follow a failed attempt. Defaults to 3.
	BackoffLimit *int32
	// TTLSecondsAfterFinished removes the tag this long after its pull finished.
	TTLSecondsAfterFinished *int32
	// ActiveDeadlineSeconds bounds the whole pull, retries included.
	ActiveDeadlineSeconds *int64
}

// NodeImageStatus reports the pulls on the node.
type NodeImageStatus struct {
	// Desired is the number of tags in spec.
	Desired int32
	// Succeeded is the number of tags pulled.
	Succeeded int32
	// Failed is the number of tags whose pull failed.
	Failed int32
	// Pulling is the number of tags being pulled.
	Pulling int32
	// Waiting is the number of tags queued for a pull that has not started (v1beta1).
	Waiting int32
	// ImageStatuses are the per-tag results, by image name.
	ImageStatuses map[string]ImageStatus
	// FirstSyncStatus records when the node first finished every pull.
	FirstSyncStatus *SyncStatus
}

// ImageStatus is the pull status of one image's tags.
type ImageStatus struct {
	Tags []ImageTagStatus
}

// ImageTagStatus is the pull status of one tag.
type ImageTagStatus struct {
	Tag   string
	Phase ImagePullPhase
	// Progress is 0-100; it may go back when a pull is retried.
	Progress       int32
	StartTime      *metav1.Time
	CompletionTime *metav1.Time
	// Version is the spec version this status is about.
	Version int64
	// ImageID is the runtime's ID of the pulled image.
	ImageID string
	// Message explains a failure (the runtime's error and the attempts made).
	Message string
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
	SyncAt  metav1.Time
	Status  SyncStatusPhase
	Message string
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
	metav1.TypeMeta
	metav1.ListMeta
	Items []NodeImage
}
