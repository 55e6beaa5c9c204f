package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Labels and annotations of a ContainerRecreateRequest (OpenKruise's keys).
const (
	// ContainerRecreateRequestPodNameKey is the pod's name (immutable).
	ContainerRecreateRequestPodNameKey = "crr.apps.kruise.io/pod-name"
	// ContainerRecreateRequestPodUIDKey is the pod's UID (immutable).
	ContainerRecreateRequestPodUIDKey = "crr.apps.kruise.io/pod-uid"
	// ContainerRecreateRequestNodeNameKey is the pod's node (immutable); node daemons
	// watch the requests of their node by it.
	ContainerRecreateRequestNodeNameKey = "crr.apps.kruise.io/node-name"
	// ContainerRecreateRequestActiveKey is present until the request finished, so node
	// daemons need not watch finished requests.
	ContainerRecreateRequestActiveKey = "crr.apps.kruise.io/active"
	// ContainerRecreateRequestSyncContainerStatusesKey carries the pod's container
	// statuses to the node daemon while the request is Recreating.
	ContainerRecreateRequestSyncContainerStatusesKey = "crr.apps.kruise.io/sync-container-statuses"
	// ContainerRecreateRequestUnreadyAcquiredKey says the pod has been made not ready
	// (unreadyGracePeriodSeconds); once set it is immutable.
	ContainerRecreateRequestUnreadyAcquiredKey = "crr.apps.kruise.io/unready-acquired"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ContainerRecreateRequest restarts containers of a running pod in place: the node
// daemon stops them and the kubelet starts them again, nothing is rescheduled.
type ContainerRecreateRequest struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec ContainerRecreateRequestSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status ContainerRecreateRequestStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ContainerRecreateRequestSpec names the pod and containers to recreate.
type ContainerRecreateRequestSpec struct {
	// PodName is the pod, in the request's namespace.
	PodName string `json:"podName" protobuf:"bytes,1,opt,name=podName"`
	// Containers are the containers to recreate, by name.
	// +listType=map
	// +listMapKey=name
	Containers []ContainerRecreateRequestContainer `json:"containers" protobuf:"bytes,2,rep,name=containers"`
	// Strategy says how to recreate them.
	// +optional
	// +default={}
	Strategy *ContainerRecreateRequestStrategy `json:"strategy,omitempty" protobuf:"bytes,3,opt,name=strategy"`
	// ActiveDeadlineSeconds fails the request if it has not finished this long after creation.
	// +optional
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty" protobuf:"varint,4,opt,name=activeDeadlineSeconds"`
	// TTLSecondsAfterFinished deletes the request this long after it finished.
	// +optional
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty" protobuf:"varint,5,opt,name=ttlSecondsAfterFinished"`
}

// ContainerRecreateRequestContainer is one container to recreate.
type ContainerRecreateRequestContainer struct {
	// Name is a container of the pod.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// PreStop is copied from the pod's container at creation. Read-only.
	// +optional
	PreStop *ProbeHandler `json:"preStop,omitempty" protobuf:"bytes,2,opt,name=preStop"`
	// Ports are copied from the pod's container when preStop is an HTTP call. Read-only.
	// +optional
	// +listType=atomic
	Ports []corev1.ContainerPort `json:"ports,omitempty" protobuf:"bytes,3,rep,name=ports"`
	// StatusContext is the container as it ran before the request (containerID and restartCount),
	// set by the server from the pod's status when the request is created.
	// +optional
	StatusContext *ContainerRecreateRequestContainerContext `json:"statusContext,omitempty" protobuf:"bytes,4,opt,name=statusContext"`
}

// ProbeHandler is the action of a preStop hook.
type ProbeHandler struct {
	// +optional
	Exec *corev1.ExecAction `json:"exec,omitempty" protobuf:"bytes,1,opt,name=exec"`
	// +optional
	HTTPGet *corev1.HTTPGetAction `json:"httpGet,omitempty" protobuf:"bytes,2,opt,name=httpGet"`
	// +optional
	TCPSocket *corev1.TCPSocketAction `json:"tcpSocket,omitempty" protobuf:"bytes,3,opt,name=tcpSocket"`
}

// ContainerRecreateRequestContainerContext is a container before it was recreated.
type ContainerRecreateRequestContainerContext struct {
	// ContainerID is "<runtime>://<id>".
	ContainerID string `json:"containerID" protobuf:"bytes,1,opt,name=containerID"`
	// RestartCount is the pod status's count for the container.
	RestartCount int32 `json:"restartCount" protobuf:"varint,2,opt,name=restartCount"`
}

// ContainerRecreateRequestStrategy says how containers are recreated.
type ContainerRecreateRequestStrategy struct {
	// FailurePolicy is Fail (stop at the first container that fails) or Ignore. Defaults to Fail.
	// +optional
	// +default="Fail"
	FailurePolicy ContainerRecreateRequestFailurePolicyType `json:"failurePolicy,omitempty" protobuf:"bytes,1,opt,name=failurePolicy,casttype=ContainerRecreateRequestFailurePolicyType"`
	// OrderedRecreate recreates a container only after the previous one is running again.
	// +optional
	OrderedRecreate bool `json:"orderedRecreate,omitempty" protobuf:"varint,2,opt,name=orderedRecreate"`
	// ForceRecreate stops each container once even if it already restarted after the
	// request was made (new ID, higher restart count or later start); without it such a
	// restart counts as the recreation and nothing is stopped.
	// +optional
	ForceRecreate bool `json:"forceRecreate,omitempty" protobuf:"varint,6,opt,name=forceRecreate"`
	// TerminationGracePeriodSeconds is how long a container may take to stop; defaults
	// to the pod's terminationGracePeriodSeconds.
	// +optional
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty" protobuf:"varint,3,opt,name=terminationGracePeriodSeconds"`
	// UnreadyGracePeriodSeconds marks the pod not ready this long before stopping containers.
	// +optional
	UnreadyGracePeriodSeconds *int64 `json:"unreadyGracePeriodSeconds,omitempty" protobuf:"varint,4,opt,name=unreadyGracePeriodSeconds"`
	// MinStartedSeconds is how long a recreated container must run before it counts as recreated.
	// +optional
	MinStartedSeconds int32 `json:"minStartedSeconds,omitempty" protobuf:"varint,5,opt,name=minStartedSeconds"`
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
	// +optional
	Phase ContainerRecreateRequestPhase `json:"phase" protobuf:"bytes,1,opt,name=phase,casttype=ContainerRecreateRequestPhase"`
	// CompletionTime is when the request finished.
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty" protobuf:"bytes,2,opt,name=completionTime"`
	// Message explains the phase.
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
	// ContainerRecreateStates are the per-container results.
	// +optional
	// +listType=map
	// +listMapKey=name
	ContainerRecreateStates []ContainerRecreateRequestContainerRecreateState `json:"containerRecreateStates,omitempty" protobuf:"bytes,4,rep,name=containerRecreateStates"`
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
	Name  string                        `json:"name" protobuf:"bytes,1,opt,name=name"`
	Phase ContainerRecreateRequestPhase `json:"phase" protobuf:"bytes,2,opt,name=phase,casttype=ContainerRecreateRequestPhase"`
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
	// IsKilled says the container was stopped by this request.
	// +optional
	IsKilled bool `json:"isKilled,omitempty" protobuf:"varint,4,opt,name=isKilled"`
}

// ContainerRecreateRequestSyncContainerStatus is an entry of the
// crr.apps.kruise.io/sync-container-statuses annotation.
// +protobuf=false
type ContainerRecreateRequestSyncContainerStatus struct {
	Name         string `json:"name"`
	Ready        bool   `json:"ready"`
	RestartCount int32  `json:"restartCount"`
	ContainerID  string `json:"containerID,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ContainerRecreateRequestList is a list of ContainerRecreateRequests.
type ContainerRecreateRequestList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ContainerRecreateRequest `json:"items" protobuf:"bytes,2,rep,name=items"`
}
