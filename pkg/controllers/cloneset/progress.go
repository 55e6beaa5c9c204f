package cloneset

import (
	"fmt"
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// rollout is what the Progressing condition is computed from: the status last
// written, the status this sync computed, and the spec's say.
type rollout struct {
	Name     string
	Replicas int32
	// Deadline is spec.progressDeadlineSeconds; nil or math.MaxInt32: no deadline.
	Deadline *int32
	Paused   bool
	Old, New v1beta1.CloneSetStatus
	Now      metav1.Time
}

// hasDeadline: progressDeadlineSeconds is set and is not MaxInt32, which means no
// deadline (as for a Deployment).
func (r rollout) hasDeadline() bool {
	return r.Deadline != nil && *r.Deadline != math.MaxInt32
}

// complete: every pod is updated and available, and there are no more pods than wanted.
func (r rollout) complete() bool {
	s := r.New
	return s.Replicas == r.Replicas && s.UpdatedReplicas == r.Replicas && s.UpdatedAvailableReplicas == r.Replicas &&
		s.AvailableReplicas == r.Replicas
}

// partitionComplete: a partition holds pods back, and every pod it lets update is
// updated and available (and the others available too).
func (r rollout) partitionComplete() bool {
	s := r.New
	return s.ExpectedUpdatedReplicas < r.Replicas && s.Replicas == r.Replicas &&
		s.UpdatedReplicas >= s.ExpectedUpdatedReplicas && s.UpdatedAvailableReplicas >= s.ExpectedUpdatedReplicas &&
		s.AvailableReplicas == r.Replicas
}

// progressed: since the last status, pods were updated, old pods went, or pods became
// ready or available (kube's DeploymentProgressing).
func (r rollout) progressed() bool {
	o, n := r.Old, r.New
	return n.UpdatedReplicas > o.UpdatedReplicas ||
		n.Replicas-n.UpdatedReplicas < o.Replicas-o.UpdatedReplicas ||
		n.ReadyReplicas > o.ReadyReplicas ||
		n.AvailableReplicas > o.AvailableReplicas
}

// progressingCondition computes the Progressing condition, kept on every CloneSet, and
// how long until it must be looked at again for the deadline (0: no need):
//
//   - every pod updated and available: True, CloneSetAvailable (and scaling an
//     available CloneSet whose pods all run the update revision is no rollout: it
//     stays so, as a Deployment does);
//   - paused: True, CloneSetProgressPaused; the time paused does not count towards
//     the deadline (resuming starts it afresh);
//   - the pods the partition lets update are updated and available:
//     True, CloneSetProgressPartitionAvailable;
//   - a new update revision, or progress since the last status: True,
//     CloneSetUpdated, its lastUpdateTime now;
//   - no progress for progressDeadlineSeconds since that lastUpdateTime (only with a
//     deadline): False, ProgressDeadlineExceeded, until progress is made again;
//   - otherwise the condition stays as it was.
func progressingCondition(r rollout) (v1beta1.CloneSetCondition, time.Duration) {
	cur := findCondition(r.Old.Conditions, v1beta1.CloneSetConditionTypeProgressing)
	set := func(status corev1.ConditionStatus, reason, message string) v1beta1.CloneSetCondition {
		c := v1beta1.CloneSetCondition{Type: v1beta1.CloneSetConditionTypeProgressing, Status: status,
			Reason: reason, Message: message, LastUpdateTime: r.Now, LastTransitionTime: r.Now}
		if cur != nil && cur.Status == status {
			c.LastTransitionTime = cur.LastTransitionTime
			// A condition that stays what it was keeps its time: the deadline counts
			// from the last change it reports.
			if cur.Reason == reason {
				c.LastUpdateTime = cur.LastUpdateTime
			}
		}
		return c
	}
	newRevision := r.Old.UpdateRevision != "" && r.Old.UpdateRevision != r.New.UpdateRevision
	stillAvailable := cur != nil && cur.Reason == v1beta1.CloneSetAvailable && !newRevision &&
		r.New.UpdatedReplicas == r.New.Replicas
	switch {
	case r.complete() || stillAvailable:
		return set(corev1.ConditionTrue, v1beta1.CloneSetAvailable, fmt.Sprintf("CloneSet %q has successfully progressed: every pod is updated and available.", r.Name)), 0
	case r.Paused:
		return set(corev1.ConditionTrue, v1beta1.CloneSetProgressPaused, fmt.Sprintf("CloneSet %q is paused: its rollout does not time out.", r.Name)), 0
	case r.partitionComplete():
		return set(corev1.ConditionTrue, v1beta1.CloneSetProgressPartitionAvailable,
			fmt.Sprintf("CloneSet %q has progressed as far as its partition allows.", r.Name)), 0
	case cur == nil || newRevision || r.progressed() || cur.Reason != v1beta1.CloneSetProgressUpdated && cur.Reason != v1beta1.CloneSetProgressDeadlineExceeded:
		// Progress, or a rollout starting (a new revision, a resume, the first look).
		c := set(corev1.ConditionTrue, v1beta1.CloneSetProgressUpdated, fmt.Sprintf("CloneSet %q is progressing to revision %s.", r.Name, r.New.UpdateRevision))
		c.LastUpdateTime = r.Now
		return c, r.recheck(c)
	case cur.Reason == v1beta1.CloneSetProgressDeadlineExceeded:
		return *cur, 0
	case r.hasDeadline() && !r.Now.Time.Before(cur.LastUpdateTime.Add(r.deadline())):
		return set(corev1.ConditionFalse, v1beta1.CloneSetProgressDeadlineExceeded,
			fmt.Sprintf("CloneSet %q has timed out progressing to revision %s: no progress for %ds.", r.Name, r.New.UpdateRevision, *r.Deadline)), 0
	}
	return *cur, r.recheck(*cur)
}

func (r rollout) deadline() time.Duration { return time.Duration(*r.Deadline) * time.Second }

// recheck is how long until a rollout that makes no progress passes its deadline.
func (r rollout) recheck(c v1beta1.CloneSetCondition) time.Duration {
	if !r.hasDeadline() {
		return 0
	}
	return max(c.LastUpdateTime.Add(r.deadline()).Sub(r.Now.Time), time.Second)
}

func findCondition(conds []v1beta1.CloneSetCondition, t v1beta1.CloneSetConditionType) *v1beta1.CloneSetCondition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}

// setCondition replaces the condition of c's type in conds where it is, or appends
// it: the order stays, so an unchanged status compares equal.
func setCondition(conds []v1beta1.CloneSetCondition, c v1beta1.CloneSetCondition) []v1beta1.CloneSetCondition {
	out := make([]v1beta1.CloneSetCondition, 0, len(conds)+1)
	found := false
	for _, have := range conds {
		if have.Type == c.Type {
			if found {
				continue
			}
			have, found = c, true
		}
		out = append(out, have)
	}
	if !found {
		out = append(out, c)
	}
	return out
}
