package daemonset

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/syncerror"
)

// computeStatus counts nodes as kube's DaemonSet controller does: an eligible node is
// scheduled when it has a pod, and its oldest pod says whether it is ready,
// available and updated; a pod on a node that should not run one is misscheduled.
func computeStatus(st *syncState, syncErr error) v1beta1.DaemonSetStatus {
	ds := st.ds
	s := v1beta1.DaemonSetStatus{
		ObservedGeneration: ds.Generation,
		UpdateRevision:     st.revs.Update.Name,
		CollisionCount:     &st.revs.CollisionCount,
		Conditions:         ds.Status.Conditions,
	}
	for _, n := range st.nodes {
		if !n.eligibility.ShouldRun {
			if len(n.pods) > 0 {
				s.NumberMisscheduled++
			}
			continue
		}
		s.DesiredNumberScheduled++
		if len(n.pods) == 0 {
			continue
		}
		s.CurrentNumberScheduled++
		pod := n.pods[0]
		if podcondition.IsReady(pod) {
			s.NumberReady++
			if ok, _ := podcondition.AvailableIn(pod, ds.Spec.MinReadySeconds, st.now); ok {
				s.NumberAvailable++
			}
		}
		if st.revs.IsUpdated(pod) {
			s.UpdatedNumberScheduled++
		}
	}
	s.NumberUnavailable = s.DesiredNumberScheduled - s.NumberAvailable
	s.Conditions = setSyncFailed(s.Conditions, syncErr, metav1.NewTime(st.now))
	return s
}

// conditionSyncFailed reports a sync that failed (kube's and OpenKruise's DaemonSet
// controllers define no condition types; this is the set's, like CloneSet's
// FailedScale): True with the error while syncs fail, removed once one succeeds.
const conditionSyncFailed appsv1.DaemonSetConditionType = "SyncFailed"

// setSyncFailed sets or clears conditionSyncFailed; a condition that stays as it was
// keeps its transition time, so a failing set is not written on every retry.
func setSyncFailed(conds []appsv1.DaemonSetCondition, syncErr error, now metav1.Time) []appsv1.DaemonSetCondition {
	var out []appsv1.DaemonSetCondition
	var prev *appsv1.DaemonSetCondition
	for i, c := range conds {
		if c.Type == conditionSyncFailed {
			prev = &conds[i]
			continue
		}
		out = append(out, c)
	}
	if syncErr == nil {
		return out
	}
	c := appsv1.DaemonSetCondition{
		Type: conditionSyncFailed, Status: corev1.ConditionTrue, LastTransitionTime: now,
		Reason: "ReconcileFailed", Message: syncerror.ConditionMessage(syncErr),
	}
	if prev != nil && prev.Status == c.Status {
		c.LastTransitionTime = prev.LastTransitionTime
	}
	return append(out, c)
}

// updateStatus writes status once per sync, and only when it changed and is not
// deferred (api.Urgent says which statuses may be).
func (c *Controller) updateStatus(ctx context.Context, st *syncState, syncErr error) error {
	_, err := c.Status.Write(ctx, st.ds, computeStatus(st, syncErr),
		podworkload.Outcome{PodWrites: st.podWrites, Failed: syncErr != nil, Requeue: &st.requeue})
	return err
}
