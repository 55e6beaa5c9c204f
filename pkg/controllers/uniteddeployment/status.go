package uniteddeployment

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// computeStatus is the UnitedDeployment's status after a sync: the pods of every
// subset's workload (updated ones only from workloads already on updateRevision),
// each subset's share, partition and Schedulable condition, the rollout's progress,
// the selector for the scale subresource, and the conditions.
func computeStatus(ud *v1beta1.UnitedDeployment, plan Plan, adaptive map[string]AdaptiveDecision, updateRevision string,
	collisionCount int32, writeErr error, now time.Time) v1beta1.UnitedDeploymentStatus {
	s := v1beta1.UnitedDeploymentStatus{
		ObservedGeneration: ud.Generation,
		CollisionCount:     &collisionCount,
		CurrentRevision:    ud.Status.CurrentRevision,
		SubsetReplicas:     plan.Replicas,
		UpdateStatus:       &v1beta1.UpdateStatus{UpdatedRevision: updateRevision, CurrentPartitions: map[string]int32{}},
		LabelSelector:      metav1.FormatLabelSelector(ud.Spec.Selector),
		Conditions:         ud.Status.Conditions,
	}
	allUpdated := len(plan.Create) == 0
	for _, subset := range ud.Spec.Topology.Subsets {
		partition := partitionOf(ud, subset.Name)
		s.UpdateStatus.CurrentPartitions[subset.Name] = partition
		st := v1beta1.UnitedDeploymentSubsetStatus{Name: subset.Name, Partition: partition}
		if w, ok := plan.Keep[subset.Name]; ok {
			st.Replicas = w.replicas
			st.ReadyReplicas = w.ready
			s.Replicas += w.replicas
			s.ReadyReplicas += w.ready
			if w.revision == updateRevision {
				s.UpdatedReplicas += w.updated
				s.UpdatedReadyReplicas += w.updatedReady
			}
			if w.revision != updateRevision || w.updated < w.replicas || w.replicas != plan.Replicas[subset.Name] {
				allUpdated = false
			}
		}
		if d, ok := adaptive[subset.Name]; ok {
			st.Conditions = []v1beta1.UnitedDeploymentSubsetCondition{d.Condition}
			st.ReservedPods = d.Reserved
			s.ReservedPods += d.Reserved
		}
		s.SubsetStatuses = append(s.SubsetStatuses, st)
	}
	if s.CurrentRevision == "" || allUpdated {
		s.CurrentRevision = updateRevision
	}

	provisioned := len(plan.Create) == 0 && len(plan.Delete) == 0
	s.Conditions = setCondition(s.Conditions, now, v1beta1.SubsetProvisioned, provisioned, "", "")
	s.Conditions = setCondition(s.Conditions, now, v1beta1.SubsetUpdated, allUpdated, "", "")
	if writeErr != nil {
		s.Conditions = setCondition(s.Conditions, now, v1beta1.SubsetFailure, true, "Error", writeErr.Error())
	} else {
		s.Conditions = removeCondition(s.Conditions, v1beta1.SubsetFailure)
	}
	return s
}

// setCondition sets a condition's status, keeping its transition time when unchanged.
func setCondition(conds []v1beta1.UnitedDeploymentCondition, now time.Time, t v1beta1.UnitedDeploymentConditionType,
	ok bool, reason, message string) []v1beta1.UnitedDeploymentCondition {
	status := corev1.ConditionFalse
	if ok {
		status = corev1.ConditionTrue
	}
	out := make([]v1beta1.UnitedDeploymentCondition, 0, len(conds)+1)
	found := false
	for _, c := range conds {
		if c.Type == t {
			found = true
			if c.Status != status {
				c.LastTransitionTime = metav1.NewTime(now)
			}
			c.Status, c.Reason, c.Message = status, reason, message
		}
		out = append(out, c)
	}
	if !found {
		out = append(out, v1beta1.UnitedDeploymentCondition{Type: t, Status: status, LastTransitionTime: metav1.NewTime(now), Reason: reason, Message: message})
	}
	return out
}

func removeCondition(conds []v1beta1.UnitedDeploymentCondition, t v1beta1.UnitedDeploymentConditionType) []v1beta1.UnitedDeploymentCondition {
	out := conds[:0:0]
	for _, c := range conds {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}

// updateStatus writes status once per sync, and only when it changed.
func (c *Controller) updateStatus(ctx context.Context, ud *v1beta1.UnitedDeployment, status v1beta1.UnitedDeploymentStatus) error {
	_, err := c.status.Write(ctx, ud, status, podworkload.Outcome{})
	return err
}

// statusAPI is the UnitedDeployment's side of podworkload.StatusAPI.
type statusAPI struct{ client kruiseclient.Interface }

func (statusAPI) Status(ud *v1beta1.UnitedDeployment) v1beta1.UnitedDeploymentStatus {
	return ud.Status
}

func (a statusAPI) UpdateStatus(ctx context.Context, ud *v1beta1.UnitedDeployment, status v1beta1.UnitedDeploymentStatus) (*v1beta1.UnitedDeployment, error) {
	out := ud.DeepCopy()
	out.Status = status
	return a.client.AppsV1beta1().UnitedDeployments(out.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{FieldManager: ControllerName})
}
