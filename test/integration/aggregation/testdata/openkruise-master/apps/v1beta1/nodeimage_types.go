// Source: github.com/openkruise/kruise apis/apps/v1beta1/nodeimage_types.go at
// ac57efda17ca75f1df706d2ccff80de4caefaba4 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type NodeImageSpec struct {
	Images map[string]ImageSpec `json:"images,omitempty"`
}

type ImageSpec struct {
	PullSecrets   []ReferenceObject `json:"pullSecrets,omitempty"`
	Tags          []ImageTagSpec    `json:"tags"`
	SandboxConfig *SandboxConfig    `json:"sandboxConfig,omitempty"`
}

type ReferenceObject struct {
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
}

type ImageTagSpec struct {
	Tag             string               `json:"tag"`
	CreatedAt       *metav1.Time         `json:"createdAt,omitempty"`
	PullPolicy      *ImageTagPullPolicy  `json:"pullPolicy,omitempty"`
	OwnerReferences []v1.ObjectReference `json:"ownerReferences,omitempty"`
	Version         int64                `json:"version,omitempty"`
}

type ImageTagPullPolicy struct {
	TimeoutSeconds          *int32 `json:"timeoutSeconds,omitempty"`
	BackoffLimit            *int32 `json:"backoffLimit,omitempty"`
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty"`
	ActiveDeadlineSeconds   *int64 `json:"activeDeadlineSeconds,omitempty"`
}

type NodeImageStatus struct {
	Desired         int32                  `json:"desired"`
	Succeeded       int32                  `json:"succeeded"`
	Failed          int32                  `json:"failed"`
	Pulling         int32                  `json:"pulling"`
	ImageStatuses   map[string]ImageStatus `json:"imageStatuses,omitempty"`
	FirstSyncStatus *SyncStatus            `json:"firstSyncStatus,omitempty"`
}

type ImageStatus struct {
	Tags []ImageTagStatus `json:"tags"`
}

type ImageTagStatus struct {
	Tag            string         `json:"tag"`
	Phase          ImagePullPhase `json:"phase"`
	Progress       int32          `json:"progress,omitempty"`
	StartTime      *metav1.Time   `json:"startTime,omitempty"`
	CompletionTime *metav1.Time   `json:"completionTime,omitempty"`
	Version        int64          `json:"version,omitempty"`
	ImageID        string         `json:"imageID,omitempty"`
	Message        string         `json:"message,omitempty"`
}

type ImagePullPhase string

type SyncStatus struct {
	SyncAt  metav1.Time     `json:"syncAt,omitempty"`
	Status  SyncStatusPhase `json:"status,omitempty"`
	Message string          `json:"message,omitempty"`
}

type SyncStatusPhase string

type NodeImage struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   NodeImageSpec   `json:"spec,omitempty"`
	Status NodeImageStatus `json:"status,omitempty"`
}
