package podcondition

import (
	"time"

	corev1 "k8s.io/api/core/v1"
)

// IsReady reports whether the pod's Ready condition is true.
func IsReady(pod *corev1.Pod) bool {
	c := Find(pod.Status.Conditions, corev1.PodReady)
	return c != nil && c.Status == corev1.ConditionTrue
}

// AvailableIn reports whether the pod is available at now (ready for at least
// minReadySeconds, as kube's workload controllers count it) and, if it is ready but
// not yet available, how long until it will be: the workload looks again then.
func AvailableIn(pod *corev1.Pod, minReadySeconds int32, now time.Time) (bool, time.Duration) {
	c := Find(pod.Status.Conditions, corev1.PodReady)
	if c == nil || c.Status != corev1.ConditionTrue {
		return false, 0
	}
	if minReadySeconds == 0 {
		return true, 0
	}
	at := c.LastTransitionTime.Add(time.Duration(minReadySeconds) * time.Second)
	if !now.Before(at) {
		return true, 0
	}
	return false, at.Sub(now)
}
