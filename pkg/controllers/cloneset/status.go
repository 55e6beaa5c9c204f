package cloneset

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/syncerror"
)

// computeStatus derives status from the pods this sync saw.
func computeStatus(st *syncState, now metav1.Time, syncErr error) v1beta1.CloneSetStatus {
	cs := st.cs
	s := v1beta1.CloneSetStatus{
		ObservedGeneration:      cs.Generation,
		UpdateRevision:          st.revs.Update.Name,
		CurrentRevision:         st.revs.Current.Name,
		CollisionCount:          &st.revs.CollisionCount,
		LabelSelector:           selectorString(cs),
		ExpectedUpdatedReplicas: st.expectedUpdated,
		Conditions:              cs.Status.Conditions,
	}
	for _, pod := range st.pods {
		s.Replicas++
		updated := st.revs.IsUpdated(pod)
		ready := podcondition.IsReady(pod)
		available, _ := podcondition.AvailableIn(pod, cs.Spec.MinReadySeconds, now.Time)
		// A pod being updated in place carries the update revision from the patch on,
		// while its Ready condition still describes the old containers until kubelet has
		// replaced them (no InPlaceUpdateReady=False round trip without a grace period):
		// it is updated, but not updated and ready before its containers run the update,
		// as OpenKruise's IsPodUpdateReady counts it.
		updatedDone := updated && !inplaceupdate.IsInPlaceUpdating(pod)
		if updated {
			s.UpdatedReplicas++
		}
		if ready {
			s.ReadyReplicas++
			if updatedDone {
				s.UpdatedReadyReplicas++
			}
		}
		if available {
			s.AvailableReplicas++
			if updatedDone {
				s.UpdatedAvailableReplicas++
			}
		}
	}
	// Once every pod runs the update revision, it is the current one.
	replicas := int32(1)
	if cs.Spec.Replicas != nil {
		replicas = *cs.Spec.Replicas
	}
	if s.UpdatedReplicas == s.Replicas && s.Replicas == replicas {
		s.CurrentRevision = st.revs.Update.Name
	}
	cond, recheck := progressingCondition(rollout{
		Name: cs.Name, Replicas: replicas, Deadline: cs.Spec.ProgressDeadlineSeconds, Paused: rollingUpdate(cs).Paused,
		Old: cs.Status, New: s, Now: now,
	})
	st.requeue.After(recheck)
	s.Conditions = setCondition(s.Conditions, cond)
	s.Conditions = setFailureConditions(s.Conditions, syncErr, now)
	return s
}

// setFailureConditions reports a failed sync as FailedScale/FailedUpdate, as OpenKruise
// does, and clears them once a sync succeeds.
func setFailureConditions(conds []v1beta1.CloneSetCondition, syncErr error, now metav1.Time) []v1beta1.CloneSetCondition {
	var out []v1beta1.CloneSetCondition
	for _, c := range conds {
		if c.Type != v1beta1.CloneSetConditionFailedScale {
			out = append(out, c)
		}
	}
	if syncErr != nil {
		out = append(out, v1beta1.CloneSetCondition{
			Type: v1beta1.CloneSetConditionFailedScale, Status: corev1.ConditionTrue,
			LastUpdateTime: now, LastTransitionTime: now, Reason: "ReconcileFailed", Message: syncerror.ConditionMessage(syncErr),
		})
	}
	return out
}

// updateStatus writes status once per sync, and only when it changed.
func (c *Controller) updateStatus(ctx context.Context, st *syncState, syncErr error) error {
	_, err := c.Status.Write(ctx, st.cs, computeStatus(st, metav1.NewTime(st.now), syncErr), podworkload.Outcome{})
	return err
}
