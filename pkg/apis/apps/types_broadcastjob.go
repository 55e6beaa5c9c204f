package apps

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// BroadcastJob runs its pod template to completion once on every eligible node.
type BroadcastJob struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   BroadcastJobSpec
	Status BroadcastJobStatus
}

// BroadcastJobSpec is the desired state of a BroadcastJob; both versions share it.
type BroadcastJobSpec struct {
	// Parallelism caps the pods running at once (number or percent of the desired
	// pods). Defaulted to MaxInt32: no cap.
	Parallelism *intstr.IntOrString
	// Template is the job pod; its restartPolicy is Never or OnFailure.
	Template corev1.PodTemplateSpec
	// CompletionPolicy is the same policy ImagePullJob uses: Always ends the job,
	// Never keeps it running for nodes that join later.
	CompletionPolicy CompletionPolicy
	Paused           bool
	FailurePolicy    FailurePolicy
}

// FailurePolicy says what a failed pod does to its BroadcastJob.
type FailurePolicy struct {
	Type FailurePolicyType
	// RestartLimit is how many container restarts the job's pods may have together
	// before the failure policy applies.
	RestartLimit int32
}

// The labels kruise-controller puts on every pod of a BroadcastJob (OpenKruise's
// keys); a pod template may not set them (validation).
const (
	BroadcastJobNameLabel          = "broadcastjob-name"
	BroadcastJobControllerUIDLabel = "broadcastjob-controller-uid"
)

// FailurePolicyType is Continue, FailFast or Pause.
type FailurePolicyType string

const (
	FailurePolicyTypeContinue FailurePolicyType = "Continue"
	FailurePolicyTypeFailFast FailurePolicyType = "FailFast"
	FailurePolicyTypePause    FailurePolicyType = "Pause"
)

// BroadcastJobStatus is what the controller observed.
type BroadcastJobStatus struct {
	Conditions     []JobCondition
	StartTime      *metav1.Time
	CompletionTime *metav1.Time
	Active         int32
	Succeeded      int32
	Failed         int32
	Desired        int32
	Phase          BroadcastJobPhase
}

// BroadcastJobPhase is the lifecycle stage OpenKruise reports (lower case on the wire).
type BroadcastJobPhase string

const (
	PhaseCompleted BroadcastJobPhase = "completed"
	PhaseRunning   BroadcastJobPhase = "running"
	PhasePaused    BroadcastJobPhase = "paused"
	PhaseFailed    BroadcastJobPhase = "failed"
)

// JobConditionType is Complete or Failed.
type JobConditionType string

const (
	JobComplete JobConditionType = "Complete"
	JobFailed   JobConditionType = "Failed"
)

// JobCondition is one observation of a BroadcastJob's state.
type JobCondition struct {
	Type               JobConditionType
	Status             corev1.ConditionStatus
	LastProbeTime      metav1.Time
	LastTransitionTime metav1.Time
	Reason             string
	Message            string
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// BroadcastJobList is a list of BroadcastJobs.
type BroadcastJobList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []BroadcastJob
}
