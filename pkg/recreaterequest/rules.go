// Package recreaterequest holds the rules of a ContainerRecreateRequest that both of its actors
// read: kruise-controller, which owns the request's life (Pending, the unready grace,
// failing a request that can no longer run, release, TTL), and the node daemon, which
// recreates the containers. Kept in one place so the two never disagree on whether a
// request may still run or when its containers may stop.
package recreaterequest

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// Finished reports whether a request phase is final.
func Finished(phase v1alpha1.ContainerRecreateRequestPhase) bool {
	switch phase {
	case v1alpha1.ContainerRecreateRequestCompleted, v1alpha1.ContainerRecreateRequestFailed,
		v1alpha1.ContainerRecreateRequestSucceeded:
		return true
	}
	return false
}

// Blocker says why a request can no longer run: its pod is gone, replaced (another UID
// than the one admission recorded), being deleted or finished, or its
// activeDeadlineSeconds passed. pod is nil when it does not exist. With no blocker it
// returns "" and how long until the deadline (0 without one), when this must be asked
// again.
func Blocker(req *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod, now time.Time) (string, time.Duration) {
	name := req.Spec.PodName
	uid := req.Labels[v1alpha1.ContainerRecreateRequestPodUIDKey]
	switch {
	case pod == nil:
		return fmt.Sprintf("pod %s no longer exists", name), 0
	case uid != "" && pod.UID != "" && string(pod.UID) != uid:
		return fmt.Sprintf("pod %s was replaced after the request was made: its UID is %s, the request is for %s", name, pod.UID, uid), 0
	case pod.DeletionTimestamp != nil:
		return fmt.Sprintf("pod %s is being deleted", name), 0
	case pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed:
		return fmt.Sprintf("pod %s has finished (phase %s)", name, pod.Status.Phase), 0
	}
	d := req.Spec.ActiveDeadlineSeconds
	if d == nil {
		return "", 0
	}
	left := req.CreationTimestamp.Add(time.Duration(*d) * time.Second).Sub(now)
	if left <= 0 {
		return fmt.Sprintf("did not finish within activeDeadlineSeconds (%ds)", *d), 0
	}
	return "", left
}

// StartableAt is when the request's containers may be stopped: at once without
// unreadyGracePeriodSeconds, otherwise that long after kruise-controller made the pod
// unready (the unready-acquired annotation). ok is false while the grace applies and
// the pod has not been made unready yet. A mark that does not parse counts from the
// request's creation: something made the pod unready, and the grace must not start
// over at every look.
func StartableAt(req *v1alpha1.ContainerRecreateRequest) (at time.Time, ok bool) {
	created := req.CreationTimestamp.Time
	if req.Spec.Strategy == nil || req.Spec.Strategy.UnreadyGracePeriodSeconds == nil {
		return created, true
	}
	grace := time.Duration(*req.Spec.Strategy.UnreadyGracePeriodSeconds) * time.Second
	v, marked := req.Annotations[v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey]
	if !marked {
		return time.Time{}, false
	}
	acquired, err := time.Parse(time.RFC3339, v)
	if err != nil {
		acquired = created
	}
	return acquired.Add(grace), true
}

// MinPositive is the smaller of two waits, where 0 (or less) means "no wait".
func MinPositive(a, b time.Duration) time.Duration {
	switch {
	case a <= 0:
		return b
	case b <= 0:
		return a
	}
	return min(a, b)
}
