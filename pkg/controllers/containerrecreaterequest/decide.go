package containerrecreaterequest

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/ttl"
	"github.com/kruise-native/kruise-native/pkg/recreaterequest"
)

// PickupTimeout is how long a request may wait, once it could start, for the node
// daemon to take it (leave Pending) before it fails: a node without a running daemon
// must not leave requests pending until their deadline, or forever without one.
const PickupTimeout = time.Minute

// Action is what one sync does for a request; the zero Action does nothing.
type Action struct {
	// Phase, when set, is written to status with Message (and completionTime when
	// final), on the condition that the request is still the one decided on.
	Phase   v1alpha1.ContainerRecreateRequestPhase
	Message string
	// AcquireUnready takes the pod out of service before containers stop
	// (unreadyGracePeriodSeconds), then records when in the unready-acquired annotation.
	AcquireUnready bool
	// Release gives the pod back its readiness and drops the active label: the
	// request is finished.
	Release bool
	// Delete removes a finished request past its ttlSecondsAfterFinished.
	Delete bool
	// RequeueAfter looks at the request again then (deadlines, TTL, pickup).
	RequeueAfter time.Duration
}

// Decide returns the next action for req; pod is nil when it does not exist. This
// controller writes every final phase: it completes a request once the node daemon has
// given each container a final state, and fails a request that can no longer run
// (recreaterequest.Blocker), which the node daemon only stops acting on. A request
// whose containers are all done completes even if a blocker came up meanwhile (the
// deadline passed, the pod went): the recreation happened.
func Decide(req *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod, now time.Time) Action {
	if recreaterequest.Finished(req.Status.Phase) {
		return decideFinished(req, now)
	}
	if req.Status.Phase == v1alpha1.ContainerRecreateRequestRecreating && recreaterequest.ContainersDone(req) {
		return Action{Phase: v1alpha1.ContainerRecreateRequestCompleted,
			Message: recreaterequest.CompletionMessage(req.Status.ContainerRecreateStates)}
	}
	blocker, next := recreaterequest.Blocker(req, pod, now)
	if blocker != "" {
		return failed(blocker)
	}
	if req.Status.Phase == "" {
		return Action{Phase: v1alpha1.ContainerRecreateRequestPending, RequeueAfter: next}
	}
	if req.Status.Phase != v1alpha1.ContainerRecreateRequestPending {
		return Action{RequeueAfter: next} // Recreating: the node daemon is at work
	}

	// Pending: the request can start now, or once the pod has been unready for its grace.
	startable, ok := recreaterequest.StartableAt(req)
	if !ok {
		return Action{AcquireUnready: true, RequeueAfter: next}
	}
	pickupBy := startable.Add(PickupTimeout)
	if !now.Before(pickupBy) {
		node := req.Labels[v1alpha1.ContainerRecreateRequestNodeNameKey]
		return failed(fmt.Sprintf("no node daemon on node %q took the request within %s of it being ready to start: is kruise-node-daemon running there?",
			node, PickupTimeout))
	}
	return Action{RequeueAfter: recreaterequest.MinPositive(next, pickupBy.Sub(now))}
}

func decideFinished(req *v1alpha1.ContainerRecreateRequest, now time.Time) Action {
	a := Action{}
	if _, active := req.Labels[v1alpha1.ContainerRecreateRequestActiveKey]; active {
		a.Release = true
	}
	if left, expires := ttl.Left(req.Status.CompletionTime, req.Spec.TTLSecondsAfterFinished, now); expires {
		if left <= 0 {
			a.Delete = true
		} else {
			a.RequeueAfter = left
		}
	}
	return a
}

func failed(msg string) Action {
	return Action{Phase: v1alpha1.ContainerRecreateRequestFailed, Message: msg}
}
