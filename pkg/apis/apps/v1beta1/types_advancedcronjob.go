package v1beta1

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// AdvancedCronJob creates a Job, a BroadcastJob or an ImageListPullJob on a cron
// schedule.
type AdvancedCronJob struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec AdvancedCronJobSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status AdvancedCronJobStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// AdvancedCronJobSpec is the desired state of an AdvancedCronJob.
type AdvancedCronJobSpec struct {
	// Schedule is a five-field cron expression ("*/5 * * * *") or a descriptor
	// ("@hourly"). Set the zone with timeZone, not TZ= in the expression.
	Schedule string `json:"schedule" protobuf:"bytes,1,opt,name=schedule"`
	// TimeZone is the IANA zone ("Europe/Berlin") the schedule is read in. Unset
	// means the zone of the controller.
	// +optional
	TimeZone *string `json:"timeZone,omitempty" protobuf:"bytes,8,opt,name=timeZone"`
	// StartingDeadlineSeconds is how late a missed run may still start; later ones
	// are skipped.
	// +optional
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty" protobuf:"varint,2,opt,name=startingDeadlineSeconds"`
	// ConcurrencyPolicy is what a due run does while an earlier one is active: Allow
	// (the default) runs both, Forbid skips the new one, Replace deletes the old one.
	// +optional
	// +default="Allow"
	ConcurrencyPolicy ConcurrencyPolicy `json:"concurrencyPolicy,omitempty" protobuf:"bytes,3,opt,name=concurrencyPolicy,casttype=ConcurrencyPolicy"`
	// Paused stops new runs; active ones continue. Defaults to false.
	// +optional
	// +default=false
	Paused *bool `json:"paused,omitempty" protobuf:"varint,4,opt,name=paused"`
	// SuccessfulJobsHistoryLimit is how many succeeded runs are kept. Defaults to 3.
	// +optional
	// +default=3
	SuccessfulJobsHistoryLimit *int32 `json:"successfulJobsHistoryLimit,omitempty" protobuf:"varint,5,opt,name=successfulJobsHistoryLimit"`
	// FailedJobsHistoryLimit is how many failed runs are kept. Defaults to 1.
	// +optional
	// +default=1
	FailedJobsHistoryLimit *int32 `json:"failedJobsHistoryLimit,omitempty" protobuf:"varint,6,opt,name=failedJobsHistoryLimit"`
	// Template is the run to create: exactly one of its templates is set.
	Template CronJobTemplate `json:"template" protobuf:"bytes,7,opt,name=template"`
}

// CronJobTemplate holds exactly one run template.
type CronJobTemplate struct {
	// JobTemplate creates a batch/v1 Job per run, as kube's CronJob does.
	// +optional
	JobTemplate *batchv1.JobTemplateSpec `json:"jobTemplate,omitempty" protobuf:"bytes,1,opt,name=jobTemplate"`
	// BroadcastJobTemplate creates a BroadcastJob per run.
	// +optional
	BroadcastJobTemplate *BroadcastJobTemplateSpec `json:"broadcastJobTemplate,omitempty" protobuf:"bytes,2,opt,name=broadcastJobTemplate"`
	// ImageListPullJobTemplate creates an ImageListPullJob per run.
	// +optional
	ImageListPullJobTemplate *ImageListPullJobTemplateSpec `json:"imageListPullJobTemplate,omitempty" protobuf:"bytes,3,opt,name=imageListPullJobTemplate"`
}

// TemplateKind names the kind of run an AdvancedCronJob creates.
// +enum
type TemplateKind string

const (
	// JobTemplate: runs are batch/v1 Jobs.
	JobTemplate TemplateKind = "Job"
	// BroadcastJobTemplate: runs are BroadcastJobs.
	BroadcastJobTemplate TemplateKind = "BroadcastJob"
	// ImageListPullJobTemplate: runs are ImageListPullJobs.
	ImageListPullJobTemplate TemplateKind = "ImageListPullJob"
)

// BroadcastJobTemplateSpec is the metadata and spec of the BroadcastJobs created.
type BroadcastJobTemplateSpec struct {
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// +optional
	Spec BroadcastJobSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}

// ImageListPullJobTemplateSpec is the metadata and spec of the ImageListPullJobs
// created. The spec's JSON is the same in both versions; the template keeps
// v1alpha1's type because the AdvancedCronJob controller creates its runs through
// v1alpha1, like the other ImageListPullJob controllers (one informer per resource).
type ImageListPullJobTemplateSpec struct {
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Converted by hand through v1alpha1's conversions (conversion_advancedcronjob.go).
	// +optional
	// +k8s:conversion-gen=false
	Spec v1alpha1.ImageListPullJobSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}

// ConcurrencyPolicy is what a due run does while an earlier one is active.
// +enum
type ConcurrencyPolicy string

const (
	// AllowConcurrent runs the new one beside the old (the default).
	AllowConcurrent ConcurrencyPolicy = "Allow"
	// ForbidConcurrent skips the new one.
	ForbidConcurrent ConcurrencyPolicy = "Forbid"
	// ReplaceConcurrent deletes the old one and runs the new one.
	ReplaceConcurrent ConcurrencyPolicy = "Replace"
)

// AdvancedCronJobStatus is what the controller observed.
type AdvancedCronJobStatus struct {
	// Type is the kind of run the job creates: Job, BroadcastJob or ImageListPullJob.
	// +optional
	Type TemplateKind `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=TemplateKind"`
	// Active references the runs still going.
	// +optional
	// +listType=atomic
	Active []corev1.ObjectReference `json:"active,omitempty" protobuf:"bytes,2,rep,name=active"`
	// LastScheduleTime is when a run was last started.
	// +optional
	LastScheduleTime *metav1.Time `json:"lastScheduleTime,omitempty" protobuf:"bytes,3,opt,name=lastScheduleTime"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// AdvancedCronJobList is a list of AdvancedCronJobs.
type AdvancedCronJobList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []AdvancedCronJob `json:"items" protobuf:"bytes,2,rep,name=items"`
}
