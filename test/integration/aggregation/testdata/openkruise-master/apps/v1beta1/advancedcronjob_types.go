// Source: github.com/openkruise/kruise apis/apps/v1beta1/advancedcronjob_types.go at
// ac57efda17ca75f1df706d2ccff80de4caefaba4 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type AdvancedCronJobSpec struct {
	Schedule                   string            `json:"schedule"`
	TimeZone                   *string           `json:"timeZone,omitempty"`
	StartingDeadlineSeconds    *int64            `json:"startingDeadlineSeconds,omitempty"`
	ConcurrencyPolicy          ConcurrencyPolicy `json:"concurrencyPolicy,omitempty"`
	Paused                     *bool             `json:"paused,omitempty"`
	SuccessfulJobsHistoryLimit *int32            `json:"successfulJobsHistoryLimit,omitempty"`
	FailedJobsHistoryLimit     *int32            `json:"failedJobsHistoryLimit,omitempty"`
	Template                   CronJobTemplate   `json:"template"`
}

type CronJobTemplate struct {
	JobTemplate          *batchv1.JobTemplateSpec  `json:"jobTemplate,omitempty"`
	BroadcastJobTemplate *BroadcastJobTemplateSpec `json:"broadcastJobTemplate,omitempty"`
}

type TemplateKind string

type BroadcastJobTemplateSpec struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BroadcastJobSpec `json:"spec,omitempty"`
}

type ConcurrencyPolicy string

type AdvancedCronJobStatus struct {
	Type             TemplateKind             `json:"type,omitempty"`
	Active           []corev1.ObjectReference `json:"active,omitempty"`
	LastScheduleTime *metav1.Time             `json:"lastScheduleTime,omitempty"`
}

type AdvancedCronJob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   AdvancedCronJobSpec   `json:"spec,omitempty"`
	Status AdvancedCronJobStatus `json:"status,omitempty"`
}
