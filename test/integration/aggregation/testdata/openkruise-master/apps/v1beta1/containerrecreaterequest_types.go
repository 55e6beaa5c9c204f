// Source: github.com/openkruise/kruise apis/apps/v1beta1/containerrecreaterequest_types.go at
// ac57efda17ca75f1df706d2ccff80de4caefaba4 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type ContainerRecreateRequestSpec struct {
	PodName                 string                              `json:"podName"`
	Containers              []ContainerRecreateRequestContainer `json:"containers"`
	Strategy                *ContainerRecreateRequestStrategy   `json:"strategy,omitempty"`
	ActiveDeadlineSeconds   *int64                              `json:"activeDeadlineSeconds,omitempty"`
	TTLSecondsAfterFinished *int32                              `json:"ttlSecondsAfterFinished,omitempty"`
}

type ContainerRecreateRequestContainer struct {
	Name          string                                    `json:"name"`
	PreStop       *ProbeHandler                             `json:"preStop,omitempty"`
	Ports         []v1.ContainerPort                        `json:"ports,omitempty"`
	StatusContext *ContainerRecreateRequestContainerContext `json:"statusContext,omitempty"`
}

type ProbeHandler struct {
	Exec      *v1.ExecAction      `json:"exec,omitempty"`
	HTTPGet   *v1.HTTPGetAction   `json:"httpGet,omitempty"`
	TCPSocket *v1.TCPSocketAction `json:"tcpSocket,omitempty"`
}

type ContainerRecreateRequestContainerContext struct {
	ContainerID  string `json:"containerID"`
	RestartCount int32  `json:"restartCount"`
}

type ContainerRecreateRequestStrategy struct {
	FailurePolicy                 ContainerRecreateRequestFailurePolicyType `json:"failurePolicy,omitempty"`
	OrderedRecreate               bool                                      `json:"orderedRecreate,omitempty"`
	ForceRecreate                 bool                                      `json:"forceRecreate,omitempty"`
	TerminationGracePeriodSeconds *int64                                    `json:"terminationGracePeriodSeconds,omitempty"`
	UnreadyGracePeriodSeconds     *int64                                    `json:"unreadyGracePeriodSeconds,omitempty"`
	MinStartedSeconds             int32                                     `json:"minStartedSeconds,omitempty"`
}

type ContainerRecreateRequestFailurePolicyType string

type ContainerRecreateRequestStatus struct {
	Phase                   ContainerRecreateRequestPhase                    `json:"phase"`
	CompletionTime          *metav1.Time                                     `json:"completionTime,omitempty"`
	Message                 string                                           `json:"message,omitempty"`
	ContainerRecreateStates []ContainerRecreateRequestContainerRecreateState `json:"containerRecreateStates,omitempty"`
}

type ContainerRecreateRequestPhase string

type ContainerRecreateRequestContainerRecreateState struct {
	Name     string                        `json:"name"`
	Phase    ContainerRecreateRequestPhase `json:"phase"`
	Message  string                        `json:"message,omitempty"`
	IsKilled bool                          `json:"isKilled,omitempty"`
}

type ContainerRecreateRequest struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ContainerRecreateRequestSpec   `json:"spec,omitempty"`
	Status ContainerRecreateRequestStatus `json:"status,omitempty"`
}
