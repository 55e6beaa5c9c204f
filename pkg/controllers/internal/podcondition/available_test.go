package podcondition

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestAvailableIn(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pod := func(status corev1.ConditionStatus) *corev1.Pod {
		return &corev1.Pod{Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{
			Type: corev1.PodReady, Status: status, LastTransitionTime: metav1.NewTime(t0),
		}}}}
	}
	cases := []struct {
		name      string
		pod       *corev1.Pod
		minReady  int32
		now       time.Time
		available bool
		wait      time.Duration
	}{
		{"no condition", &corev1.Pod{}, 0, t0, false, 0},
		{"not ready", pod(corev1.ConditionFalse), 0, t0, false, 0},
		{"ready, no minReadySeconds", pod(corev1.ConditionTrue), 0, t0, true, 0},
		{"ready, waiting out minReadySeconds", pod(corev1.ConditionTrue), 10, t0.Add(4 * time.Second), false, 6 * time.Second},
		{"ready for minReadySeconds", pod(corev1.ConditionTrue), 10, t0.Add(10 * time.Second), true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok, wait := AvailableIn(tc.pod, tc.minReady, tc.now)
			if ok != tc.available || wait != tc.wait {
				t.Errorf("AvailableIn = %t, %v; want %t, %v", ok, wait, tc.available, tc.wait)
			}
			if IsReady(tc.pod) != (tc.name != "no condition" && tc.name != "not ready") {
				t.Errorf("IsReady = %t", IsReady(tc.pod))
			}
		})
	}
}
