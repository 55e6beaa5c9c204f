package cloneset

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/syncerror"
)

// computeStatus derives status from the pods this sync saw.
func computeStatus(st *syncState, now metav1.Time, syncErr error) apps.CloneSetStatus {
	cs := st.cs
	s := apps.CloneSetStatus{
		ObservedGeneration:      cs.Generation,
		UpdateRevision:          st.updateRev.Name,
		CurrentRevision:         st.currentRev,
		CollisionCount:          &st.collisions,
		LabelSelector:           selectorString(cs),
		ExpectedUpdatedReplicas: st.expectedUpdated,
		Conditions:              cs.Status.Conditions,
	}
	for _, pod := range st.pods {
		s.Replicas++
		updated := pod.Labels[pub.ControllerRevisionHashLabelKey] == st.updateRev.Name
		ready := isReady(pod)
		available, _ := availableIn(pod, cs.Spec.MinReadySeconds, now.Time)
		if updated {
			s.UpdatedReplicas++
		}
		if ready {
			s.ReadyReplicas++
			if updated {
				s.UpdatedReadyReplicas++
			}
		}
		if available {
			s.AvailableReplicas++
			if updated {
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
		s.CurrentRevision = st.updateRev.Name
	}
	s.Conditions = setFailureConditions(s.Conditions, syncErr, now)
	return s
}

// setFailureConditions reports a failed sync as FailedScale/FailedUpdate, as OpenKruise
// does, and clears them once a sync succeeds.
func setFailureConditions(conds []apps.CloneSetCondition, syncErr error, now metav1.Time) []apps.CloneSetCondition {
	var out []apps.CloneSetCondition
	for _, c := range conds {
		if c.Type != apps.CloneSetConditionFailedScale {
			out = append(out, c)
		}
	}
	if syncErr != nil {
		out = append(out, apps.CloneSetCondition{
			Type: apps.CloneSetConditionFailedScale, Status: corev1.ConditionTrue,
			LastUpdateTime: now, LastTransitionTime: now, Reason: "ReconcileFailed", Message: syncerror.ConditionMessage(syncErr),
		})
	}
	return out
}

// updateStatus writes status once per sync, and only when it changed.
func (c *Controller) updateStatus(ctx context.Context, st *syncState, syncErr error) error {
	now := metav1.NewTime(c.now())
	status := computeStatus(st, now, syncErr)
	if equalIgnoringTimes(st.cs.Status, status) {
		return nil
	}
	updated := st.cs.DeepCopy()
	updated.Status = status
	out := &v1beta1.CloneSet{}
	if err := c.scheme.Convert(updated, out, nil); err != nil {
		return err
	}
	_, err := c.kruiseClient.AppsV1beta1().CloneSets(out.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{FieldManager: ControllerName})
	if isNotFound(err) {
		return nil
	}
	return wrap(err, "updating status")
}

// equalIgnoringTimes compares statuses, ignoring condition timestamps (a repeated
// failure is not news).
func equalIgnoringTimes(stored, computed apps.CloneSetStatus) bool {
	strip := func(s apps.CloneSetStatus) apps.CloneSetStatus {
		s = *s.DeepCopy()
		for i := range s.Conditions {
			s.Conditions[i].LastUpdateTime = metav1.Time{}
			s.Conditions[i].LastTransitionTime = metav1.Time{}
		}
		return s
	}
	return apiequality.Semantic.DeepEqual(strip(stored), strip(computed))
}
