// Source: github.com/openkruise/kruise apis/apps/v1beta1/imagepulljob_types.go at
// ac57efda17ca75f1df706d2ccff80de4caefaba4 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type ImagePullJobSpec struct {
	Image                string `json:"image"`
	ImagePullJobTemplate `json:",inline"`
}

type ImagePullJobTemplate struct {
	PullSecrets      []string                  `json:"pullSecrets,omitempty"`
	Selector         *ImagePullJobNodeSelector `json:"selector,omitempty"`
	PodSelector      *ImagePullJobPodSelector  `json:"podSelector,omitempty"`
	Parallelism      *intstr.IntOrString       `json:"parallelism,omitempty"`
	PullPolicy       *PullPolicy               `json:"pullPolicy,omitempty"`
	CompletionPolicy CompletionPolicy          `json:"completionPolicy"`
	SandboxConfig    *SandboxConfig            `json:"sandboxConfig,omitempty"`
}

type ImagePullJobPodSelector struct {
	metav1.LabelSelector `json:",inline"`
}

type ImagePullJobNodeSelector struct {
	Names                []string `json:"names,omitempty"`
	metav1.LabelSelector `json:",inline"`
}

type PullPolicy struct {
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty"`
	BackoffLimit   *int32 `json:"backoffLimit,omitempty"`
}

type ImagePullJobStatus struct {
	StartTime      *metav1.Time `json:"startTime,omitempty"`
	CompletionTime *metav1.Time `json:"completionTime,omitempty"`
	Desired        int32        `json:"desired"`
	Active         int32        `json:"active"`
	Succeeded      int32        `json:"succeeded"`
	Failed         int32        `json:"failed"`
	Message        string       `json:"message,omitempty"`
	FailedNodes    []string     `json:"failedNodes,omitempty"`
}

type ImagePullJob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ImagePullJobSpec   `json:"spec,omitempty"`
	Status ImagePullJobStatus `json:"status,omitempty"`
}
