package containerrecreaterequest

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/ttl"
)

// PickupTimeout is how long a request may wait, once it could start, for the node
// daemon to take it (leave Pending) before it fails: a node without a running daemon
// must not leave requests pending until their deadline, or forever without one.
const PickupTimeout = time.Minute

// Action is what one sync does for a request; the zero Action does nothing.
type Action struct {
	// Phase, when set, is written to status with Message (and completionTime when final).
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

// Finished reports whether a request reached a final phase.
func Finished(phase v1alpha1.ContainerRecreateRequestPhase) bool {
	switch phase {
	case v1alpha1.ContainerRecreateRequestCompleted, v1alpha1.ContainerRecreateRequestFailed,
		v1alpha1.ContainerRecreateRequestSucceeded:
		return true
	}
	return false
}

// Decide returns the next action for crr; pod is nil when it does not exist.
func Decide(crr *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod, now time.Time) Action {
	if Finished(crr.Status.Phase) {
		return decideFinished(crr, now)
	}
	podName := crr.Spec.PodName
	switch {
	case pod == nil:
		return failed(fmt.Sprintf("pod %s no longer exists", podName))
	case pod.UID != "" && crr.Labels[v1alpha1.ContainerRecreateRequestPodUIDKey] != "" &&
		string(pod.UID) != crr.Labels[v1alpha1.ContainerRecreateRequestPodUIDKey]:
		return failed(fmt.Sprintf("pod %s was recreated (its UID changed) after the request was made", podName))
	case pod.DeletionTimestamp != nil:
		return failed(fmt.Sprintf("pod %s is being deleted", podName))
	}

	created := crr.CreationTimestamp.Time
	var next time.Duration
	if d := crr.Spec.ActiveDeadlineSeconds; d != nil {
		deadline := created.Add(time.Duration(*d) * time.Second)
		if !now.Before(deadline) {
			return failed(fmt.Sprintf("did not finish within activeDeadlineSeconds (%ds)", *d))
		}
		next = deadline.Sub(now)
	}

	if crr.Status.Phase == "" {
		return Action{Phase: v1alpha1.ContainerRecreateRequestPending, RequeueAfter: next}
	}
	if crr.Status.Phase != v1alpha1.ContainerRecreateRequestPending {
		return Action{RequeueAfter: next} // Recreating: the node daemon is at work
	}

	// Pending: the request can start now, or once the pod has been unready for its grace.
	startable := created
	if g := unreadyGrace(crr); g != nil {
		acquired, ok := unreadyAcquiredAt(crr)
		if !ok {
			return Action{AcquireUnready: true, RequeueAfter: next}
		}
		startable = acquired.Add(*g)
	}
	pickupBy := startable.Add(PickupTimeout)
	if !now.Before(pickupBy) {
		node := crr.Labels[v1alpha1.ContainerRecreateRequestNodeNameKey]
		return failed(fmt.Sprintf("no node daemon on node %q took the request within %s of it being ready to start: is kruise-node-daemon running there?",
			node, PickupTimeout))
	}
	return Action{RequeueAfter: minPositive(next, pickupBy.Sub(now))}
}

func decideFinished(crr *v1alpha1.ContainerRecreateRequest, now time.Time) Action {
	a := Action{}
	if _, active := crr.Labels[v1alpha1.ContainerRecreateRequestActiveKey]; active {
		a.Release = true
	}
	if left, expires := ttl.Left(crr.Status.CompletionTime, crr.Spec.TTLSecondsAfterFinished, now); expires {
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

func unreadyGrace(crr *v1alpha1.ContainerRecreateRequest) *time.Duration {
	if crr.Spec.Strategy == nil || crr.Spec.Strategy.UnreadyGracePeriodSeconds == nil {
		return nil
	}
	g := time.Duration(*crr.Spec.Strategy.UnreadyGracePeriodSeconds) * time.Second
	return &g
}

// unreadyAcquiredAt reads when the pod was made unready (RFC3339).
func unreadyAcquiredAt(crr *v1alpha1.ContainerRecreateRequest) (time.Time, bool) {
	v, ok := crr.Annotations[v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey]
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		// Set by something else in another format: the pod is unready, count from now-ish.
		return time.Time{}, true
	}
	return t, true
}

func minPositive(a, b time.Duration) time.Duration {
	switch {
	case a <= 0:
		return b
	case b <= 0:
		return a
	}
	return min(a, b)
}
