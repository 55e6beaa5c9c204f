package apps

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// AdvancedCronJob creates a Job, a BroadcastJob or an ImageListPullJob on a cron
// schedule.
type AdvancedCronJob struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   AdvancedCronJobSpec
	Status AdvancedCronJobStatus
}

// AdvancedCronJobSpec is the desired state of an AdvancedCronJob; both versions share it.
type AdvancedCronJobSpec struct {
	// Schedule is a standard five-field cron expression (or a @descriptor).
	Schedule string
	// TimeZone is an IANA zone name the schedule is read in; unset means the
	// controller's zone.
	TimeZone                *string
	StartingDeadlineSeconds *int64
	ConcurrencyPolicy       ConcurrencyPolicy
	Paused                  *bool
	// History limits: how many finished runs of each outcome are kept.
	SuccessfulJobsHistoryLimit *int32
	FailedJobsHistoryLimit     *int32
	// Template holds exactly one of the run templates.
	Template CronJobTemplate
}

// CronJobTemplate is a union: one run template is set.
type CronJobTemplate struct {
	JobTemplate              *batchv1.JobTemplateSpec
	BroadcastJobTemplate     *BroadcastJobTemplateSpec
	ImageListPullJobTemplate *ImageListPullJobTemplateSpec
}

// TemplateKind names the kind of run an AdvancedCronJob creates (status.type).
type TemplateKind string

const (
	JobTemplate              TemplateKind = "Job"
	BroadcastJobTemplate     TemplateKind = "BroadcastJob"
	ImageListPullJobTemplate TemplateKind = "ImageListPullJob"
)

// BroadcastJobTemplateSpec is the metadata and spec of the BroadcastJobs created.
type BroadcastJobTemplateSpec struct {
	metav1.ObjectMeta
	Spec BroadcastJobSpec
}

// ImageListPullJobTemplateSpec is the metadata and spec of the ImageListPullJobs created.
type ImageListPullJobTemplateSpec struct {
	metav1.ObjectMeta
	// v1beta1 carries v1alpha1's spec here, which conversion-gen cannot convert
	// across packages: each version converts it by hand.
	// +k8s:conversion-gen=false
	Spec ImageListPullJobSpec
}

// ConcurrencyPolicy is what a due run does while an earlier one is active.
type ConcurrencyPolicy string

const (
	AllowConcurrent   ConcurrencyPolicy = "Allow"
	ForbidConcurrent  ConcurrencyPolicy = "Forbid"
	ReplaceConcurrent ConcurrencyPolicy = "Replace"
)

// AdvancedCronJobStatus is what the controller observed.
type AdvancedCronJobStatus struct {
	Type             TemplateKind
	Active           []corev1.ObjectReference
	LastScheduleTime *metav1.Time
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// AdvancedCronJobList is a list of AdvancedCronJobs.
type AdvancedCronJobList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []AdvancedCronJob
}
