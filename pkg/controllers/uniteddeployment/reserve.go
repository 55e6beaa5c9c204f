package uniteddeployment

import (
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

// DecideReserving decides a subset's state under Adaptive scheduling with
// reserveUnschedulablePods (OpenKruise v1.9): pods that cannot be scheduled are not
// deleted but reserved, so the subset is full only as long as it has reserved pods,
// and the replicas they stand for run as temporary pods in later subsets until the
// reserved pods are ready (then the temporary pods go).
//
// A pod is reserved while it is not ready and either has been unschedulable for
// rescheduleCriticalSeconds since it was created, or was created or scheduled while
// the subset is marked Schedulable=False: it counts as reserved until it proves
// itself ready, so temporary pods are never removed before their replacements run.
// The mark stays at least unschedulableDuration after it was set, and until no pod is
// reserved.
func DecideReserving(now time.Time, prev *v1beta1.UnitedDeploymentSubsetCondition, pods []*corev1.Pod, critical, last time.Duration) AdaptiveDecision {
	marked := prev != nil && prev.Status == corev1.ConditionFalse
	var live, reserved int32
	var recheck time.Duration
	soonest := func(d time.Duration) {
		if d > 0 && (recheck == 0 || d < recheck) {
			recheck = d
		}
	}
	for _, pod := range pods {
		if pod.DeletionTimestamp != nil {
			continue
		}
		live++
		if podcondition.IsReady(pod) {
			continue
		}
		if marked {
			reserved++
			continue
		}
		if !unschedulable(pod) {
			continue
		}
		if waited := now.Sub(pod.CreationTimestamp.Time); waited >= critical {
			reserved++
		} else {
			soonest(critical - waited)
		}
	}
	d := AdaptiveDecision{Full: reserved > 0, Room: live - reserved, Reserved: reserved}
	switch {
	case reserved > 0:
		d.Condition = condition(now, prev, corev1.ConditionFalse, "Unschedulable",
			"pods of the subset cannot be scheduled: they are reserved and run as temporary pods in later subsets")
		soonest(last)
	case marked:
		if left := last - now.Sub(prev.LastTransitionTime.Time); left > 0 {
			d.Condition = *prev
			soonest(left)
			break
		}
		d.Condition = condition(now, prev, corev1.ConditionTrue, "", "")
	default:
		d.Condition = condition(now, prev, corev1.ConditionTrue, "", "")
	}
	d.Recheck = recheck
	return d
}

// keepReserved gives each subset with reserved pods back the replicas those pods
// hold: Compute moved them to later subsets (the temporary pods), and the subset's
// workload keeps them, up to its share without Adaptive scheduling.
func keepReserved(plan *Plan, base map[string]int32, adaptive map[string]AdaptiveDecision) {
	for name, d := range adaptive {
		if d.Reserved == 0 {
			continue
		}
		plan.Replicas[name] = max(plan.Replicas[name], min(base[name], d.Room+d.Reserved))
	}
}
