package uniteddeployment

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// Adaptive defaults, as OpenKruise's.
const (
	defaultRescheduleCritical = 30 * time.Second
	defaultUnschedulableLast  = 300 * time.Second
)

// AdaptiveDecision is a subset's state under Adaptive scheduling.
type AdaptiveDecision struct {
	// Full: new pods of the subset stay unschedulable; it keeps Room replicas (its
	// pods that did get a node) and the rest move to later subsets.
	Full bool
	Room int32
	// Reserved (adaptive.reserveUnschedulablePods) counts the subset's pods that are
	// kept although they cannot run yet; the subset keeps their replicas, and the
	// replicas they stand for run as temporary pods in later subsets.
	Reserved int32
	// Condition is the subset's Schedulable condition to report.
	Condition v1beta1.UnitedDeploymentSubsetCondition
	// Recheck, if positive, is when the decision may change with nothing else happening
	// (a pending pod crossing rescheduleCriticalSeconds, a full subset's time running out).
	Recheck time.Duration
}

// DecideAdaptive decides whether a subset is full. A subset turns full when one of its
// pods has been unschedulable (PodScheduled False, reason Unschedulable) for
// rescheduleCriticalSeconds since it was created; it stays full for
// unschedulableLastSeconds, then is given its replicas back to try again — room may
// have returned. prev is the subset's Schedulable condition as last reported.
func DecideAdaptive(now time.Time, prev *v1beta1.UnitedDeploymentSubsetCondition, pods []*corev1.Pod, critical, last time.Duration) AdaptiveDecision {
	var scheduled int32
	stuck := false
	var recheck time.Duration
	for _, pod := range pods {
		if pod.DeletionTimestamp != nil {
			continue
		}
		if pod.Spec.NodeName != "" {
			scheduled++
			continue
		}
		if !unschedulable(pod) {
			continue
		}
		waited := now.Sub(pod.CreationTimestamp.Time)
		if waited >= critical {
			stuck = true
		} else if left := critical - waited; recheck == 0 || left < recheck {
			recheck = left
		}
	}
	if prev != nil && prev.Status == corev1.ConditionFalse {
		if left := last - now.Sub(prev.LastTransitionTime.Time); left > 0 {
			return AdaptiveDecision{Full: true, Room: scheduled, Condition: *prev, Recheck: left}
		}
		// Its time is up: give it its replicas back, whatever pods are still pending
		// from before (they are the ones moved out, or go soon).
		return AdaptiveDecision{Condition: condition(now, prev, corev1.ConditionTrue, "", ""), Recheck: critical}
	}
	if stuck {
		return AdaptiveDecision{Full: true, Room: scheduled, Recheck: last,
			Condition: condition(now, prev, corev1.ConditionFalse, "Unschedulable",
				"pods of the subset stayed unschedulable longer than rescheduleCriticalSeconds")}
	}
	return AdaptiveDecision{Condition: condition(now, prev, corev1.ConditionTrue, "", ""), Recheck: recheck}
}

// condition returns the Schedulable condition with status, keeping the previous
// transition time when the status did not change.
func condition(now time.Time, prev *v1beta1.UnitedDeploymentSubsetCondition, status corev1.ConditionStatus, reason, message string) v1beta1.UnitedDeploymentSubsetCondition {
	c := v1beta1.UnitedDeploymentSubsetCondition{Type: v1beta1.UnitedDeploymentSubsetSchedulable, Status: status,
		LastTransitionTime: metav1.NewTime(now), Reason: reason, Message: message}
	if prev != nil && prev.Status == status {
		c.LastTransitionTime = prev.LastTransitionTime
	}
	return c
}

func unschedulable(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled {
			return c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable
		}
	}
	return false
}

// adaptiveDurations reads the strategy's durations with OpenKruise's defaults:
// unschedulableDuration (v1.9's name) before unschedulableLastSeconds (v1.8's).
func adaptiveDurations(s *v1beta1.UnitedDeploymentScheduleStrategy) (critical, last time.Duration) {
	critical, last = defaultRescheduleCritical, defaultUnschedulableLast
	if a := s.Adaptive; a != nil {
		if a.RescheduleCriticalSeconds != nil {
			critical = time.Duration(*a.RescheduleCriticalSeconds) * time.Second
		}
		switch {
		case a.UnschedulableDuration != nil:
			last = time.Duration(*a.UnschedulableDuration) * time.Second
		case a.UnschedulableLastSeconds != nil:
			last = time.Duration(*a.UnschedulableLastSeconds) * time.Second
		}
	}
	return critical, last
}

// reserving reports whether adaptive.reserveUnschedulablePods is on.
func reserving(s *v1beta1.UnitedDeploymentScheduleStrategy) bool {
	return s.Type == v1beta1.AdaptiveUnitedDeploymentScheduleStrategyType && s.Adaptive != nil && s.Adaptive.ReserveUnschedulablePods
}
