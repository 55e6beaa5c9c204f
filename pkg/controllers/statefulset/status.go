package statefulset

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/syncerror"
)

// OpenKruise's condition types for failed pod writes.
const (
	ConditionFailedCreatePod appsv1.StatefulSetConditionType = "FailedCreatePod"
	ConditionFailedUpdatePod appsv1.StatefulSetConditionType = "FailedUpdatePod"
)

// computeStatus derives status from the pods this sync saw, counting as kube's
// StatefulSet controller does: replicas are all the set's pods (terminating ones
// too), current and updated ones exclude terminating pods.
func computeStatus(st *syncState, now metav1.Time) v1beta1.StatefulSetStatus {
	set := st.set
	s := v1beta1.StatefulSetStatus{
		ObservedGeneration: set.Generation,
		UpdateRevision:     st.revs.Update.Name,
		CurrentRevision:    st.revs.Current.Name,
		CollisionCount:     &st.revs.CollisionCount,
		LabelSelector:      selectorString(set),
		Conditions:         set.Status.Conditions,
		VolumeClaims:       st.volumeClaims,
	}
	minReady := minReadySeconds(set)
	for _, pod := range st.pods {
		s.Replicas++
		revision := pod.Labels[pub.ControllerRevisionHashLabelKey]
		updated := revision == st.revs.Update.Name
		// A pod being updated in place is not updated and ready before kubelet has
		// replaced its containers (its Ready condition still describes the old ones).
		updatedDone := updated && !inplaceupdate.IsInPlaceUpdating(pod)
		if isRunningAndReady(pod) {
			s.ReadyReplicas++
			if updatedDone {
				s.UpdatedReadyReplicas++
			}
			if available, _ := readyFor(pod, minReady, now.Time); available {
				s.AvailableReplicas++
				if updatedDone {
					s.UpdatedAvailableReplicas++
				}
			}
		}
		if pod.DeletionTimestamp == nil {
			if revision == st.revs.Current.Name {
				s.CurrentReplicas++
			}
			if updated {
				s.UpdatedReplicas++
			}
		}
	}
	// A rolling update is complete once every wanted pod runs the update revision.
	replicas := int32(1)
	if set.Spec.Replicas != nil {
		replicas = *set.Spec.Replicas
	}
	if set.Spec.UpdateStrategy.Type != appsv1.OnDeleteStatefulSetStrategyType &&
		s.UpdatedReplicas == replicas && s.ReadyReplicas == replicas && s.Replicas == replicas {
		s.CurrentRevision = s.UpdateRevision
		s.CurrentReplicas = s.UpdatedReplicas
	}
	s.Conditions = setCondition(s.Conditions, ConditionFailedCreatePod, st.createErr, now)
	s.Conditions = setCondition(s.Conditions, ConditionFailedUpdatePod, st.updateErr, now)
	s.Conditions, st.newClaimCondition = claimCondition(s.Conditions, st.claimReason, st.claimMessages, now)
	return s
}

// setCondition reports a failure as a True condition of type t, and removes the
// condition once the writes of its kind succeed again.
func setCondition(conds []appsv1.StatefulSetCondition, t appsv1.StatefulSetConditionType, failure error, now metav1.Time) []appsv1.StatefulSetCondition {
	var out []appsv1.StatefulSetCondition
	var prev *appsv1.StatefulSetCondition
	for i := range conds {
		if conds[i].Type == t {
			prev = &conds[i]
			continue
		}
		out = append(out, conds[i])
	}
	if failure == nil {
		return out
	}
	c := appsv1.StatefulSetCondition{Type: t, Status: corev1.ConditionTrue, LastTransitionTime: now, Reason: string(t), Message: syncerror.ConditionMessage(failure)}
	if prev != nil && prev.Status == corev1.ConditionTrue {
		c.LastTransitionTime = prev.LastTransitionTime
	}
	return append(out, c)
}

// updateStatus writes status once per sync, and only when it changed.
func (c *Controller) updateStatus(ctx context.Context, st *syncState) error {
	status := computeStatus(st, metav1.NewTime(st.now))
	if cond := st.newClaimCondition; cond != nil {
		c.recorder.Eventf(st.set, corev1.EventTypeWarning, "FailedUpdatePVC", "%s", cond.Message)
	}
	_, err := c.Status.Write(ctx, st.set, status, podworkload.Outcome{})
	return err
}
