package apps

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// EphemeralContainerEnvKey is the env variable kruise-controller adds to every
// ephemeral container it injects, set to the EphemeralJob's UID: how a job tells its
// own containers from a namesake someone else added (OpenKruise's KRUISE_EJOB_ID).
const EphemeralContainerEnvKey = "KRUISE_EJOB_ID"

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// EphemeralJob injects the ephemeral containers of its template into the pods its
// selector matches (in its namespace), through each pod's ephemeralcontainers
// subresource, and counts how they end.
type EphemeralJob struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   EphemeralJobSpec
	Status EphemeralJobStatus
}

// EphemeralJobSpec is which pods, how many at a time and the containers to inject.
type EphemeralJobSpec struct {
	// Selector selects the pods of the job's namespace.
	Selector *metav1.LabelSelector
	// Replicas, if set, is how many of the matched pods (oldest first) get the
	// containers; nil means all of them.
	Replicas *int32
	// Parallelism is how many pods may run the containers at a time (nil: 1).
	Parallelism *int32
	// Template holds the ephemeral containers.
	Template EphemeralContainerTemplateSpec
	// Paused stops further injections.
	Paused bool
	// ActiveDeadlineSeconds, if set, fails the job that long after its start time.
	ActiveDeadlineSeconds *int64
	// TTLSecondsAfterFinished deletes the job that long after it finished (nil: 1800).
	TTLSecondsAfterFinished *int32
}

// EphemeralContainerTemplateSpec is the ephemeral containers to inject.
type EphemeralContainerTemplateSpec struct {
	EphemeralContainers []corev1.EphemeralContainer
}

// EphemeralJobStatus is written by kruise-controller.
type EphemeralJobStatus struct {
	Conditions     []EphemeralJobCondition
	StartTime      *metav1.Time
	CompletionTime *metav1.Time
	Phase          EphemeralJobPhase
	// Matches is the number of target pods (matched, active, at most replicas).
	Matches   int32
	Running   int32
	Succeeded int32
	Waiting   int32
	Failed    int32
}

// EphemeralJobCondition is one condition of a job.
type EphemeralJobCondition struct {
	Type               EphemeralJobConditionType
	Status             corev1.ConditionStatus
	LastProbeTime      metav1.Time
	LastTransitionTime metav1.Time
	Reason             string
	Message            string
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// EphemeralJobList is a list of EphemeralJobs.
type EphemeralJobList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []EphemeralJob
}

// EphemeralJobConditionType is the type of a job condition.
type EphemeralJobConditionType string

// OpenKruise's condition types.
const (
	EJobSucceeded    EphemeralJobConditionType = "JobSucceeded"
	EJobFailed       EphemeralJobConditionType = "JobFailed"
	EJobError        EphemeralJobConditionType = "JobError"
	EJobInitialized  EphemeralJobConditionType = "Initialized"
	EJobMatchedEmpty EphemeralJobConditionType = "MatchedEmpty"
)

// EphemeralJobPhase is the phase of a job.
type EphemeralJobPhase string

// OpenKruise's phases.
const (
	EphemeralJobSucceeded EphemeralJobPhase = "Succeeded"
	EphemeralJobFailed    EphemeralJobPhase = "Failed"
	EphemeralJobWaiting   EphemeralJobPhase = "Waiting"
	EphemeralJobRunning   EphemeralJobPhase = "Running"
	EphemeralJobPause     EphemeralJobPhase = "Paused"
	EphemeralJobError     EphemeralJobPhase = "Error"
	EphemeralJobUnknown   EphemeralJobPhase = "Unknown"
)
