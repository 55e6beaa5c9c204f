package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// BroadcastJob runs its pod template to completion once on every eligible node, as a
// DaemonSet places pods but with a Job's run-to-completion pods.
type BroadcastJob struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec BroadcastJobSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status BroadcastJobStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// BroadcastJobSpec is the desired state of a BroadcastJob.
type BroadcastJobSpec struct {
	// Parallelism caps how many of the job's pods run at once (a number, or a percent
	// of the desired pods). Unset means no cap.
	// +optional
	// +default=2147483647
	Parallelism *intstr.IntOrString `json:"parallelism,omitempty" protobuf:"bytes,1,opt,name=parallelism"`
	// Template is the pod run on each eligible node (those its node selector, affinity
	// and tolerations admit). restartPolicy must be Never or OnFailure.
	Template corev1.PodTemplateSpec `json:"template" protobuf:"bytes,2,opt,name=template"`
	// CompletionPolicy says whether the job ends (Always, the default) or keeps
	// running for nodes that join later (Never).
	// +optional
	CompletionPolicy CompletionPolicy `json:"completionPolicy" protobuf:"bytes,3,opt,name=completionPolicy"`
	// Paused stops the job from creating pods; running pods are left alone.
	// +optional
	Paused bool `json:"paused,omitempty" protobuf:"varint,4,opt,name=paused"`
	// FailurePolicy says what a failed pod does to the job.
	// +optional
	FailurePolicy FailurePolicy `json:"failurePolicy,omitempty" protobuf:"bytes,5,opt,name=failurePolicy"`
}

// FailurePolicy says what a failed pod does to its BroadcastJob.
type FailurePolicy struct {
	// Type is Continue, FailFast (the default) or Pause.
	// +optional
	// +default="FailFast"
	Type FailurePolicyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=FailurePolicyType"`
	// RestartLimit is how many container restarts the job's pods may add up to before
	// the job counts as failed.
	// +optional
	RestartLimit int32 `json:"restartLimit,omitempty" protobuf:"varint,2,opt,name=restartLimit"`
}

// FailurePolicyType is Continue, FailFast or Pause.
// +enum
type FailurePolicyType string

const (
	// FailurePolicyTypeContinue keeps the job running past failed pods.
	FailurePolicyTypeContinue FailurePolicyType = "Continue"
	// FailurePolicyTypeFailFast marks the job failed at its first failed pod (the default).
	FailurePolicyTypeFailFast FailurePolicyType = "FailFast"
	// FailurePolicyTypePause pauses the job at its first failed pod.
	FailurePolicyTypePause FailurePolicyType = "Pause"
)

// BroadcastJobStatus is what the controller observed.
type BroadcastJobStatus struct {
	// Conditions are Complete and Failed.
	// +optional
	// +patchMergeKey=type
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=type
	Conditions []JobCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,1,rep,name=conditions"`
	// StartTime is when the controller first acted on the job.
	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty" protobuf:"bytes,2,opt,name=startTime"`
	// CompletionTime is when the job ended.
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty" protobuf:"bytes,3,opt,name=completionTime"`
	// Active is the number of running pods.
	// +optional
	Active int32 `json:"active" protobuf:"varint,4,opt,name=active"`
	// Succeeded is the number of pods in phase Succeeded.
	// +optional
	Succeeded int32 `json:"succeeded" protobuf:"varint,5,opt,name=succeeded"`
	// Failed is the number of pods in phase Failed.
	// +optional
	Failed int32 `json:"failed" protobuf:"varint,6,opt,name=failed"`
	// Desired is the number of pods the job should run: one per eligible node.
	// +optional
	Desired int32 `json:"desired" protobuf:"varint,7,opt,name=desired"`
	// Phase is running, paused, completed or failed.
	// +optional
	Phase BroadcastJobPhase `json:"phase" protobuf:"bytes,8,opt,name=phase,casttype=BroadcastJobPhase"`
}

// BroadcastJobPhase is the stage of a BroadcastJob.
// +enum
type BroadcastJobPhase string

const (
	// PhaseCompleted: every desired pod finished.
	PhaseCompleted BroadcastJobPhase = "completed"
	// PhaseRunning: pods are being created or run.
	PhaseRunning BroadcastJobPhase = "running"
	// PhasePaused: spec.paused, or a Pause failure policy fired.
	PhasePaused BroadcastJobPhase = "paused"
	// PhaseFailed: the deadline passed or the failure policy failed the job.
	PhaseFailed BroadcastJobPhase = "failed"
)

// JobConditionType is Complete or Failed.
// +enum
type JobConditionType string

const (
	// JobComplete: the job ran a pod to its end on every eligible node.
	JobComplete JobConditionType = "Complete"
	// JobFailed: the deadline passed or the pods restarted more than the restart limit.
	JobFailed JobConditionType = "Failed"
)

// JobCondition is one observation of a BroadcastJob's state.
type JobCondition struct {
	// Type is Complete or Failed.
	Type JobConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=JobConditionType"`
	// Status is True, False or Unknown.
	Status corev1.ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status,casttype=k8s.io/api/core/v1.ConditionStatus"`
	// LastProbeTime is when the condition was last checked.
	// +optional
	LastProbeTime metav1.Time `json:"lastProbeTime,omitempty" protobuf:"bytes,3,opt,name=lastProbeTime"`
	// LastTransitionTime is when the status last changed.
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	// Reason is a one-word cause of the last transition.
	// +optional
	Reason string `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	// Message tells the last transition to a human.
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// BroadcastJobList is a list of BroadcastJobs.
type BroadcastJobList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []BroadcastJob `json:"items" protobuf:"bytes,2,rep,name=items"`
}
