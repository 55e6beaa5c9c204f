// Source: github.com/openkruise/kruise apis/apps/v1beta1/imagelistpulljob_types.go at
// ac57efda17ca75f1df706d2ccff80de4caefaba4 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type ImageListPullJobSpec struct {
	Images []string `json:"images"`

	ImagePullJobTemplate `json:",inline"`
}

type ImageListPullJobStatus struct {
	StartTime           *metav1.Time         `json:"startTime,omitempty"`
	CompletionTime      *metav1.Time         `json:"completionTime,omitempty"`
	Desired             int32                `json:"desired"`
	Active              int32                `json:"active"`
	Completed           int32                `json:"completed"`
	Succeeded           int32                `json:"succeeded"`
	FailedImageStatuses []*FailedImageStatus `json:"failedImageStatuses,omitempty"`
}

type FailedImageStatus struct {
	ImagePullJob string `json:"imagePullJob,omitempty"`
	Name         string `json:"name,omitempty"`
	Message      string `json:"message,omitempty"`
}

type ImageListPullJob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ImageListPullJobSpec   `json:"spec,omitempty"`
	Status ImageListPullJobStatus `json:"status,omitempty"`
}
