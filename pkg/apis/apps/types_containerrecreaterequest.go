package apps

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ContainerRecreateRequest restarts containers of a running pod in place: the node
// daemon stops them and the kubelet starts them again, nothing is rescheduled.
type ContainerRecreateRequest struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   ContainerRecreateRequestSpec
	Status ContainerRecreateRequestStatus
}

// ContainerRecreateRequestSpec names the pod and containers to recreate.
type ContainerRecreateRequestSpec struct {
	// PodName is the pod, in the request's namespace.
	PodName string
	// Containers are the containers to recreate, by name.
	Containers []ContainerRecreateRequestContainer
	// Strategy says how to recreate them.
	Strategy *ContainerRecreateRequestStrategy
	// ActiveDeadlineSeconds fails the request if it has not finished this long after creation.
	ActiveDeadlineSeconds *int64
	// TTLSecondsAfterFinished deletes the request this long after it finished.
	TTLSecondsAfterFinished *int32
}

// ContainerRecreateRequestContainer is one container to recreate.
type ContainerRecreateRequestContainer struct {
	// Name is a container of the pod.
	Name string
	// PreStop is copied from the pod's container at creation. Read-only.
	PreStop *ProbeHandler
	// Ports are copied from the pod's container when preStop is an HTTP call. Read-only.
	Ports []corev1.ContainerPort
	// StatusContext is the container as it ran before the request (containerID and restartCount),
	// set by the server from the pod's status when the request is created.
	StatusContext *ContainerRecreateRequestContainerContext
}

// ProbeHandler is the action of a preStop hook.
type ProbeHandler struct {
	Exec      *corev1.ExecAction
	HTTPGet   *corev1.HTTPGetAction
	TCPSocket *corev1.TCPSocketAction
}

// ContainerRecreateRequestContainerContext is a container before it was recreated.
type ContainerRecreateRequestContainerContext struct {
	// ContainerID is "<runtime>://<id>".
	ContainerID string
	// RestartCount is the pod status's count for the container.
	RestartCount int32
}

// ContainerRecreateRequestStrategy says how containers are recreated.
type ContainerRecreateRequestStrategy struct {
	// FailurePolicy is Fail (stop at the first container that fails) or Ignore. Defaults to Fail.
	FailurePolicy ContainerRecreateRequestFailurePolicyType
	// OrderedRecreate recreates a container only after the previous one is running again.
	OrderedRecreate bool
	// ForceRecreate stops each container once even if it already restarted after the
	// request was made (new ID, higher restart count or later start); without it such a
	// restart counts as the recreation and nothing is stopped.
	ForceRecreate bool
	// TerminationGracePeriodSeconds is how long a container may take to stop; defaults
	// to the pod's terminationGracePeriodSeconds.
	TerminationGracePeriodSeconds *int64
	// UnreadyGracePeriodSeconds marks the pod not ready this long before stopping containers.
	UnreadyGracePeriodSeconds *int64
	// MinStartedSeconds is how long a recreated container must run before it counts as recreated.
	MinStartedSeconds int32
}

// ContainerRecreateRequestFailurePolicyType is Fail or Ignore.
type ContainerRecreateRequestFailurePolicyType string

const (
	ContainerRecreateRequestFailurePolicyFail   ContainerRecreateRequestFailurePolicyType = "Fail"
	ContainerRecreateRequestFailurePolicyIgnore ContainerRecreateRequestFailurePolicyType = "Ignore"
)

// ContainerRecreateRequestStatus is the progress of the request.
type ContainerRecreateRequestStatus struct {
	// Phase is Pending, Recreating, Succeeded, Failed or Completed.
	Phase ContainerRecreateRequestPhase
	// CompletionTime is when the request finished.
	CompletionTime *metav1.Time
	// Message explains the phase.
	Message string
	// ContainerRecreateStates are the per-container results.
	ContainerRecreateStates []ContainerRecreateRequestContainerRecreateState
}

// ContainerRecreateRequestPhase is the phase of a request or of one container.
type ContainerRecreateRequestPhase string

const (
	ContainerRecreateRequestPending    ContainerRecreateRequestPhase = "Pending"
	ContainerRecreateRequestRecreating ContainerRecreateRequestPhase = "Recreating"
	ContainerRecreateRequestSucceeded  ContainerRecreateRequestPhase = "Succeeded"
	ContainerRecreateRequestFailed     ContainerRecreateRequestPhase = "Failed"
	ContainerRecreateRequestCompleted  ContainerRecreateRequestPhase = "Completed"
)

// ContainerRecreateRequestContainerRecreateState is one container's result.
type ContainerRecreateRequestContainerRecreateState struct {
	Name    string
	Phase   ContainerRecreateRequestPhase
	Message string
	// IsKilled says the container was stopped by this request.
	IsKilled bool
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ContainerRecreateRequestList is a list of ContainerRecreateRequests.
type ContainerRecreateRequestList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []ContainerRecreateRequest
}
