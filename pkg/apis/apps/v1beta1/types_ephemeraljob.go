package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// EphemeralJob (v1beta1, OpenKruise master's shape: the same as v1alpha1's) injects the ephemeral containers of its template into the pods its
// selector matches (in its namespace), through each pod's ephemeralcontainers
// subresource, at most parallelism pods at a time and replicas pods in all, and
// counts how they end.
type EphemeralJob struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec EphemeralJobSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status EphemeralJobStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// EphemeralJobSpec is which pods, how many at a time and the containers to inject.
type EphemeralJobSpec struct {
	// Selector is a label query over the pods of the job's namespace.
	Selector *metav1.LabelSelector `json:"selector" protobuf:"bytes,1,opt,name=selector"`
	// Replicas, if set, is how many of the matched pods (oldest first) get the
	// containers; more than match means all of them.
	// +optional
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,2,opt,name=replicas"`
	// Parallelism is the most pods running the ephemeral containers at a time (default 1).
	// +optional
	Parallelism *int32 `json:"parallelism,omitempty" protobuf:"varint,3,opt,name=parallelism"`
	// Template describes the ephemeral containers to inject.
	Template EphemeralContainerTemplateSpec `json:"template" protobuf:"bytes,4,opt,name=template"`
	// Paused stops further injections.
	// +optional
	Paused bool `json:"paused,omitempty" protobuf:"varint,5,opt,name=paused"`
	// ActiveDeadlineSeconds, if set, is how long after its startTime the job may be
	// active; then it fails (reason DeadlineExceeded).
	// +optional
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty" protobuf:"varint,6,opt,name=activeDeadlineSeconds"`
	// TTLSecondsAfterFinished is how long after it finished (succeeded or failed) the
	// job is deleted; unset means 1800, zero at once.
	// +optional
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty" protobuf:"varint,7,opt,name=ttlSecondsAfterFinished"`
}

// EphemeralContainerTemplateSpec describes the ephemeral containers to inject.
type EphemeralContainerTemplateSpec struct {
	// EphemeralContainers are added to each target pod.
	// +patchMergeKey=name
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=name
	EphemeralContainers []corev1.EphemeralContainer `json:"ephemeralContainers" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,1,rep,name=ephemeralContainers"`
}

// EphemeralJobStatus is written by kruise-controller.
type EphemeralJobStatus struct {
	// Conditions of the job (Initialized, MatchedEmpty, JobSucceeded, JobFailed, JobError).
	// +optional
	// +patchMergeKey=type
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=type
	Conditions []EphemeralJobCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,1,rep,name=conditions"`
	// StartTime is when the controller first acted on the job.
	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty" protobuf:"bytes,2,opt,name=startTime"`
	// CompletionTime is when the job finished.
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty" protobuf:"bytes,3,opt,name=completionTime"`
	// Phase of the job: Waiting, Running, Succeeded, Failed, Paused, Error or Unknown.
	// +optional
	Phase EphemeralJobPhase `json:"phase" protobuf:"bytes,4,opt,name=phase,casttype=EphemeralJobPhase"`
	// Matches is the number of target pods.
	// +optional
	Matches int32 `json:"match" protobuf:"varint,5,opt,name=match"`
	// Running is the number of target pods whose ephemeral containers run.
	// +optional
	Running int32 `json:"running" protobuf:"varint,6,opt,name=running"`
	// Succeeded is the number of target pods whose ephemeral containers all exited 0.
	// +optional
	Succeeded int32 `json:"succeeded" protobuf:"varint,7,opt,name=succeeded"`
	// Waiting is the number of target pods whose ephemeral containers have not started.
	// +optional
	Waiting int32 `json:"waiting" protobuf:"varint,8,opt,name=waiting"`
	// Failed is the number of target pods with a failed ephemeral container.
	// +optional
	Failed int32 `json:"failed" protobuf:"varint,9,opt,name=failed"`
}

// EphemeralJobCondition describes one state of a job.
type EphemeralJobCondition struct {
	// Type of the condition.
	Type EphemeralJobConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=EphemeralJobConditionType"`
	// Status of the condition: True, False or Unknown.
	Status corev1.ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status,casttype=k8s.io/api/core/v1.ConditionStatus"`
	// LastProbeTime is when the condition was last checked.
	// +optional
	LastProbeTime metav1.Time `json:"lastProbeTime,omitempty" protobuf:"bytes,3,opt,name=lastProbeTime"`
	// LastTransitionTime is when the condition last changed.
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	// Reason is a brief reason for the last transition.
	// +optional
	Reason string `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	// Message is a human-readable explanation.
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// EphemeralJobConditionType is the type of a job condition.
type EphemeralJobConditionType string

// The condition types.
const (
	// EJobSucceeded: every target pod's ephemeral containers exited 0.
	EJobSucceeded EphemeralJobConditionType = "JobSucceeded"
	// EJobFailed: some ephemeral container failed, or the deadline passed.
	EJobFailed EphemeralJobConditionType = "JobFailed"
	// EJobError: the job cannot run (no ephemeral containers).
	EJobError EphemeralJobConditionType = "JobError"
	// EJobInitialized: the controller has acted on the job.
	EJobInitialized EphemeralJobConditionType = "Initialized"
	// EJobMatchedEmpty: the selector matches no pod.
	EJobMatchedEmpty EphemeralJobConditionType = "MatchedEmpty"
)

// EphemeralJobPhase is the phase of a job.
type EphemeralJobPhase string

// The phases.
const (
	EphemeralJobSucceeded EphemeralJobPhase = "Succeeded"
	EphemeralJobFailed    EphemeralJobPhase = "Failed"
	EphemeralJobWaiting   EphemeralJobPhase = "Waiting"
	EphemeralJobRunning   EphemeralJobPhase = "Running"
	EphemeralJobPause     EphemeralJobPhase = "Paused"
	EphemeralJobError     EphemeralJobPhase = "Error"
	EphemeralJobUnknown   EphemeralJobPhase = "Unknown"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// EphemeralJobList is a list of EphemeralJobs.
type EphemeralJobList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []EphemeralJob `json:"items" protobuf:"bytes,2,rep,name=items"`
}
