// Package podcondition reads and writes pod status conditions, for every library and
// controller that sets Kruise's readiness-gate conditions.
package podcondition

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Find returns the condition of type t, or nil.
func Find(conditions []corev1.PodCondition, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range conditions {
		if conditions[i].Type == t {
			return &conditions[i]
		}
	}
	return nil
}

// Set sets cond's status, reason and message on pod and reports whether anything
// changed; LastTransitionTime becomes now when the condition is new or its status changes.
func Set(pod *corev1.Pod, cond corev1.PodCondition, now metav1.Time) bool {
	c := Find(pod.Status.Conditions, cond.Type)
	if c == nil {
		cond.LastTransitionTime = now
		pod.Status.Conditions = append(pod.Status.Conditions, cond)
		return true
	}
	if c.Status == cond.Status && c.Reason == cond.Reason && c.Message == cond.Message {
		return false
	}
	if c.Status != cond.Status {
		c.LastTransitionTime = now
	}
	c.Status, c.Reason, c.Message = cond.Status, cond.Reason, cond.Message
	return true
}
