package cloneset

import (
	"math"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// The Progressing condition through a rollout's life: reasons, the deadline, pauses.
func TestProgressingCondition(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) metav1.Time { return metav1.NewTime(t0.Add(time.Duration(s) * time.Second)) }
	cond := func(status corev1.ConditionStatus, reason string, updated, transitioned int) []v1beta1.CloneSetCondition {
		return []v1beta1.CloneSetCondition{{Type: v1beta1.CloneSetConditionTypeProgressing, Status: status, Reason: reason,
			LastUpdateTime: at(updated), LastTransitionTime: at(transitioned), Message: "as before"}}
	}
	// status: replicas, updated, ready, available, updatedAvailable, expectedUpdated at revision rev.
	status := func(rev string, replicas, updated, ready, available, updatedAvailable, expected int32, conds []v1beta1.CloneSetCondition) v1beta1.CloneSetStatus {
		return v1beta1.CloneSetStatus{UpdateRevision: rev, Replicas: replicas, UpdatedReplicas: updated, ReadyReplicas: ready,
			AvailableReplicas: available, UpdatedAvailableReplicas: updatedAvailable, ExpectedUpdatedReplicas: expected, Conditions: conds}
	}
	deadline := ptr.To[int32](60)
	cases := []struct {
		name        string
		r           rollout
		wantStatus  corev1.ConditionStatus
		wantReason  string
		wantUpdated int // seconds after t0
		wantRecheck time.Duration
	}{
		{name: "a new CloneSet without a deadline starts progressing, no recheck",
			r:          rollout{Replicas: 2, Old: status("", 0, 0, 0, 0, 0, 0, nil), New: status("r1", 2, 2, 0, 0, 0, 2, nil), Now: at(0)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetProgressUpdated, wantUpdated: 0},
		{name: "a new CloneSet with a deadline: recheck when it would pass",
			r:          rollout{Replicas: 2, Deadline: deadline, Old: status("", 0, 0, 0, 0, 0, 0, nil), New: status("r1", 2, 2, 0, 0, 0, 2, nil), Now: at(0)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetProgressUpdated, wantUpdated: 0, wantRecheck: 60 * time.Second},
		{name: "every pod updated and available",
			r: rollout{Replicas: 2, Deadline: deadline, Old: status("r1", 2, 2, 1, 1, 1, 2, cond(corev1.ConditionTrue, v1beta1.CloneSetProgressUpdated, 0, 0)),
				New: status("r1", 2, 2, 2, 2, 2, 2, nil), Now: at(10)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetAvailable, wantUpdated: 10},
		{name: "a new revision starts a rollout afresh",
			r: rollout{Replicas: 2, Deadline: deadline, Old: status("r1", 2, 2, 2, 2, 2, 2, cond(corev1.ConditionTrue, v1beta1.CloneSetAvailable, 5, 5)),
				New: status("r2", 2, 0, 2, 2, 0, 2, nil), Now: at(100)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetProgressUpdated, wantUpdated: 100, wantRecheck: 60 * time.Second},
		{name: "progress moves lastUpdateTime on",
			r: rollout{Replicas: 2, Deadline: deadline, Old: status("r2", 2, 0, 2, 2, 0, 2, cond(corev1.ConditionTrue, v1beta1.CloneSetProgressUpdated, 100, 100)),
				New: status("r2", 2, 1, 1, 1, 0, 2, nil), Now: at(130)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetProgressUpdated, wantUpdated: 130, wantRecheck: 60 * time.Second},
		{name: "no progress within the deadline: unchanged, recheck at the deadline",
			r: rollout{Replicas: 2, Deadline: deadline, Old: status("r2", 2, 1, 1, 1, 0, 2, cond(corev1.ConditionTrue, v1beta1.CloneSetProgressUpdated, 130, 100)),
				New: status("r2", 2, 1, 1, 1, 0, 2, nil), Now: at(150)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetProgressUpdated, wantUpdated: 130, wantRecheck: 40 * time.Second},
		{name: "no progress past the deadline: ProgressDeadlineExceeded",
			r: rollout{Replicas: 2, Deadline: deadline, Old: status("r2", 2, 1, 1, 1, 0, 2, cond(corev1.ConditionTrue, v1beta1.CloneSetProgressUpdated, 130, 100)),
				New: status("r2", 2, 1, 1, 1, 0, 2, nil), Now: at(190)},
			wantStatus: corev1.ConditionFalse, wantReason: v1beta1.CloneSetProgressDeadlineExceeded, wantUpdated: 190},
		{name: "exceeded stays exceeded without progress",
			r: rollout{Replicas: 2, Deadline: deadline, Old: status("r2", 2, 1, 1, 1, 0, 2, cond(corev1.ConditionFalse, v1beta1.CloneSetProgressDeadlineExceeded, 190, 190)),
				New: status("r2", 2, 1, 1, 1, 0, 2, nil), Now: at(500)},
			wantStatus: corev1.ConditionFalse, wantReason: v1beta1.CloneSetProgressDeadlineExceeded, wantUpdated: 190},
		{name: "progress after the deadline: progressing again",
			r: rollout{Replicas: 2, Deadline: deadline, Old: status("r2", 2, 1, 1, 1, 0, 2, cond(corev1.ConditionFalse, v1beta1.CloneSetProgressDeadlineExceeded, 190, 190)),
				New: status("r2", 2, 2, 1, 1, 0, 2, nil), Now: at(500)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetProgressUpdated, wantUpdated: 500, wantRecheck: 60 * time.Second},
		{name: "no deadline: no timeout however long",
			r: rollout{Replicas: 2, Old: status("r2", 2, 1, 1, 1, 0, 2, cond(corev1.ConditionTrue, v1beta1.CloneSetProgressUpdated, 0, 0)),
				New: status("r2", 2, 1, 1, 1, 0, 2, nil), Now: at(1e6)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetProgressUpdated, wantUpdated: 0},
		{name: "MaxInt32 is no deadline",
			r: rollout{Replicas: 2, Deadline: ptr.To[int32](math.MaxInt32), Old: status("r2", 2, 1, 1, 1, 0, 2, cond(corev1.ConditionTrue, v1beta1.CloneSetProgressUpdated, 0, 0)),
				New: status("r2", 2, 1, 1, 1, 0, 2, nil), Now: at(1e6)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetProgressUpdated, wantUpdated: 0},
		{name: "paused: does not time out",
			r: rollout{Replicas: 2, Deadline: deadline, Paused: true, Old: status("r2", 2, 1, 1, 1, 0, 2, cond(corev1.ConditionTrue, v1beta1.CloneSetProgressUpdated, 0, 0)),
				New: status("r2", 2, 1, 1, 1, 0, 2, nil), Now: at(1000)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetProgressPaused, wantUpdated: 1000},
		{name: "resumed: the deadline starts afresh",
			r: rollout{Replicas: 2, Deadline: deadline, Old: status("r2", 2, 1, 1, 1, 0, 2, cond(corev1.ConditionTrue, v1beta1.CloneSetProgressPaused, 1000, 0)),
				New: status("r2", 2, 1, 1, 1, 0, 2, nil), Now: at(5000)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetProgressUpdated, wantUpdated: 5000, wantRecheck: 60 * time.Second},
		{name: "the partition's pods updated and available",
			r: rollout{Replicas: 4, Deadline: deadline, Old: status("r2", 4, 1, 4, 3, 0, 2, cond(corev1.ConditionTrue, v1beta1.CloneSetProgressUpdated, 0, 0)),
				New: status("r2", 4, 2, 4, 4, 2, 2, nil), Now: at(30)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetProgressPartitionAvailable, wantUpdated: 30},
		{name: "scaling up an available CloneSet is no rollout: stays available",
			r: rollout{Replicas: 4, Deadline: deadline, Old: status("r1", 2, 2, 2, 2, 2, 2, cond(corev1.ConditionTrue, v1beta1.CloneSetAvailable, 5, 5)),
				New: status("r1", 4, 4, 2, 2, 2, 4, nil), Now: at(1000)},
			wantStatus: corev1.ConditionTrue, wantReason: v1beta1.CloneSetAvailable, wantUpdated: 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.r.Name = "cs"
			got, recheck := progressingCondition(tc.r)
			if got.Type != v1beta1.CloneSetConditionTypeProgressing || got.Status != tc.wantStatus || got.Reason != tc.wantReason {
				t.Fatalf("got %s=%s (%s), want %s (%s)", got.Type, got.Status, got.Reason, tc.wantStatus, tc.wantReason)
			}
			if !got.LastUpdateTime.Equal(ptr.To(at(tc.wantUpdated))) {
				t.Errorf("lastUpdateTime %v, want t0+%ds", got.LastUpdateTime, tc.wantUpdated)
			}
			if got.Message == "" {
				t.Error("no message")
			}
			if recheck != tc.wantRecheck {
				t.Errorf("recheck %v, want %v", recheck, tc.wantRecheck)
			}
		})
	}
}

// The condition keeps its place among the others, so an unchanged status compares equal.
func TestSetConditionKeepsOrder(t *testing.T) {
	conds := []v1beta1.CloneSetCondition{{Type: v1beta1.CloneSetConditionTypeProgressing, Reason: "a"}, {Type: v1beta1.CloneSetConditionFailedScale}}
	got := setCondition(conds, v1beta1.CloneSetCondition{Type: v1beta1.CloneSetConditionTypeProgressing, Reason: "b"})
	if len(got) != 2 || got[0].Reason != "b" || got[1].Type != v1beta1.CloneSetConditionFailedScale || conds[0].Reason != "a" {
		t.Fatalf("got %+v (input %+v)", got, conds)
	}
}
