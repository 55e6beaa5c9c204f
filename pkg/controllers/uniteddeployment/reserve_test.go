package uniteddeployment

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func readyPod() *corev1.Pod {
	p := runningPod()
	p.Status.Phase = corev1.PodRunning
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	return p
}

func TestDecideReserving(t *testing.T) {
	now := time.Unix(1000, 0)
	critical, last := 10*time.Second, 60*time.Second
	falseSince := func(at time.Time) *v1beta1.UnitedDeploymentSubsetCondition {
		return &v1beta1.UnitedDeploymentSubsetCondition{Type: v1beta1.UnitedDeploymentSubsetSchedulable, Status: corev1.ConditionFalse, LastTransitionTime: metav1.NewTime(at)}
	}
	for _, tc := range []struct {
		name                   string
		prev                   *v1beta1.UnitedDeploymentSubsetCondition
		pods                   []*corev1.Pod
		wantReserved, wantRoom int32
		wantStatus             corev1.ConditionStatus
		wantRecheck            time.Duration
	}{
		{name: "all ready", pods: []*corev1.Pod{readyPod(), readyPod()}, wantRoom: 2, wantStatus: corev1.ConditionTrue},
		{name: "pending, not yet critical: look again when it is",
			pods: []*corev1.Pod{readyPod(), pendingPod(now.Add(-4*time.Second), true)}, wantRoom: 2,
			wantStatus: corev1.ConditionTrue, wantRecheck: 6 * time.Second},
		{name: "unschedulable past critical is reserved, not given up",
			pods:         []*corev1.Pod{readyPod(), pendingPod(now.Add(-11*time.Second), true), pendingPod(now.Add(-12*time.Second), true)},
			wantReserved: 2, wantRoom: 1, wantStatus: corev1.ConditionFalse, wantRecheck: last},
		{name: "while marked, a scheduled pod not ready yet stays reserved", prev: falseSince(now.Add(-2 * time.Hour)),
			pods:         []*corev1.Pod{readyPod(), runningPod()},
			wantReserved: 1, wantRoom: 1, wantStatus: corev1.ConditionFalse, wantRecheck: last},
		{name: "reserved pods ready: no temporaries, marked until unschedulableDuration", prev: falseSince(now.Add(-20 * time.Second)),
			pods: []*corev1.Pod{readyPod(), readyPod()}, wantRoom: 2, wantStatus: corev1.ConditionFalse, wantRecheck: 40 * time.Second},
		{name: "then schedulable again", prev: falseSince(now.Add(-61 * time.Second)),
			pods: []*corev1.Pod{readyPod(), readyPod()}, wantRoom: 2, wantStatus: corev1.ConditionTrue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := DecideReserving(now, tc.prev, tc.pods, critical, last)
			if d.Full != (tc.wantReserved > 0) || d.Reserved != tc.wantReserved || d.Room != tc.wantRoom ||
				d.Condition.Status != tc.wantStatus || d.Recheck != tc.wantRecheck {
				t.Errorf("got full=%v reserved=%d room=%d status=%s recheck=%v, want reserved=%d room=%d status=%s recheck=%v",
					d.Full, d.Reserved, d.Room, d.Condition.Status, d.Recheck, tc.wantReserved, tc.wantRoom, tc.wantStatus, tc.wantRecheck)
			}
		})
	}
}

// unschedulableDuration (v1.9) wins over unschedulableLastSeconds (v1.8), which still
// works alone.
func TestAdaptiveDurations(t *testing.T) {
	for _, tc := range []struct {
		name     string
		a        *v1beta1.AdaptiveUnitedDeploymentStrategy
		wantLast time.Duration
	}{
		{"defaults", nil, 300 * time.Second},
		{"v1.8 name", &v1beta1.AdaptiveUnitedDeploymentStrategy{UnschedulableLastSeconds: ptr.To[int32](20)}, 20 * time.Second},
		{"v1.9 name", &v1beta1.AdaptiveUnitedDeploymentStrategy{UnschedulableDuration: ptr.To[int32](40)}, 40 * time.Second},
		{"both: v1.9's", &v1beta1.AdaptiveUnitedDeploymentStrategy{UnschedulableDuration: ptr.To[int32](40), UnschedulableLastSeconds: ptr.To[int32](20)}, 40 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, last := adaptiveDurations(&v1beta1.UnitedDeploymentScheduleStrategy{Type: v1beta1.AdaptiveUnitedDeploymentScheduleStrategyType, Adaptive: tc.a})
			if last != tc.wantLast {
				t.Errorf("unschedulable duration %v, want %v", last, tc.wantLast)
			}
		})
	}
}

// A subset with reserved pods keeps their replicas (up to its share without Adaptive
// scheduling), on top of the temporary pods Compute gave the later subsets.
func TestKeepReserved(t *testing.T) {
	plan := Plan{Replicas: map[string]int32{"x": 0, "a": 3}}
	keepReserved(&plan, map[string]int32{"x": 2, "a": 1}, map[string]AdaptiveDecision{
		"x": {Full: true, Reserved: 2}, "a": {Room: 3},
	})
	if plan.Replicas["x"] != 2 || plan.Replicas["a"] != 3 {
		t.Errorf("replicas %v, want x 2 (reserved) and a 3 (1 + 2 temporary)", plan.Replicas)
	}
	plan = Plan{Replicas: map[string]int32{"x": 0, "a": 3}}
	keepReserved(&plan, map[string]int32{"x": 1, "a": 2}, map[string]AdaptiveDecision{"x": {Full: true, Reserved: 2}})
	if plan.Replicas["x"] != 1 {
		t.Errorf("subset x keeps %d replicas, want 1: never more than its share", plan.Replicas["x"])
	}
}
