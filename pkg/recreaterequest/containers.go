package recreaterequest

import (
	"fmt"
	"strings"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// ContainerFinished reports whether a container's state is final: Succeeded or Failed.
func ContainerFinished(phase v1alpha1.ContainerRecreateRequestPhase) bool {
	return phase == v1alpha1.ContainerRecreateRequestSucceeded || phase == v1alpha1.ContainerRecreateRequestFailed
}

// ContainersDone reports whether the node daemon has given every container of the
// request a final state: its work is over, and kruise-controller completes the request.
func ContainersDone(req *v1alpha1.ContainerRecreateRequest) bool {
	for _, c := range req.Spec.Containers {
		st := State(req, c.Name)
		if st == nil || !ContainerFinished(st.Phase) {
			return false
		}
	}
	return true
}

// State is the stored state of container name, nil when it has none yet.
func State(req *v1alpha1.ContainerRecreateRequest, name string) *v1alpha1.ContainerRecreateRequestContainerRecreateState {
	for i := range req.Status.ContainerRecreateStates {
		if req.Status.ContainerRecreateStates[i].Name == name {
			return &req.Status.ContainerRecreateStates[i]
		}
	}
	return nil
}

// CompletionMessage is the message of a completed request: the containers that failed
// and why, "" when every one was recreated.
func CompletionMessage(states []v1alpha1.ContainerRecreateRequestContainerRecreateState) string {
	var failed []string
	for _, st := range states {
		if st.Phase == v1alpha1.ContainerRecreateRequestFailed {
			failed = append(failed, fmt.Sprintf("%s (%s)", st.Name, st.Message))
		}
	}
	if len(failed) == 0 {
		return ""
	}
	return "failed to recreate " + strings.Join(failed, ", ")
}
