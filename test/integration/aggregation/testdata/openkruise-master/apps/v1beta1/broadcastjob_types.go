// Source: github.com/openkruise/kruise apis/apps/v1beta1/broadcastjob_types.go at
// ac57efda17ca75f1df706d2ccff80de4caefaba4 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type BroadcastJobSpec struct {
	Parallelism      *intstr.IntOrString `json:"parallelism,omitempty"`
	Template         v1.PodTemplateSpec  `json:"template"`
	CompletionPolicy CompletionPolicy    `json:"completionPolicy"`
	Paused           bool                `json:"paused,omitempty"`
	FailurePolicy    FailurePolicy       `json:"failurePolicy,omitempty"`
}

type CompletionPolicy struct {
	Type                    CompletionPolicyType `json:"type,omitempty"`
	ActiveDeadlineSeconds   *int64               `json:"activeDeadlineSeconds,omitempty"`
	TTLSecondsAfterFinished *int32               `json:"ttlSecondsAfterFinished,omitempty"`
}

type CompletionPolicyType string

type BroadcastJobStatus struct {
	Conditions     []JobCondition    `json:"conditions,omitempty"`
	StartTime      *metav1.Time      `json:"startTime,omitempty"`
	CompletionTime *metav1.Time      `json:"completionTime,omitempty"`
	Active         int32             `json:"active"`
	Succeeded      int32             `json:"succeeded"`
	Failed         int32             `json:"failed"`
	Desired        int32             `json:"desired"`
	Phase          BroadcastJobPhase `json:"phase"`
}

type BroadcastJobPhase string

type FailurePolicy struct {
	Type         FailurePolicyType `json:"type,omitempty"`
	RestartLimit int32             `json:"restartLimit,omitempty"`
}

type FailurePolicyType string

type JobConditionType string

type JobCondition struct {
	Type               JobConditionType   `json:"type"`
	Status             v1.ConditionStatus `json:"status"`
	LastProbeTime      metav1.Time        `json:"lastProbeTime,omitempty"`
	LastTransitionTime metav1.Time        `json:"lastTransitionTime,omitempty"`
	Reason             string             `json:"reason,omitempty"`
	Message            string             `json:"message,omitempty"`
}

type BroadcastJob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BroadcastJobSpec   `json:"spec,omitempty"`
	Status BroadcastJobStatus `json:"status,omitempty"`
}
