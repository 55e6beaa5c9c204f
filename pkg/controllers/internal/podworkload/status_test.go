package podworkload

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestStatusUnchanged(t *testing.T) {
	t0 := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	t1 := metav1.NewTime(t0.Add(time.Minute))
	base := func(at metav1.Time, message string) appsv1.StatefulSetStatus {
		return appsv1.StatefulSetStatus{Replicas: 3, ReadyReplicas: 2, Conditions: []appsv1.StatefulSetCondition{{
			Type: "FailedCreatePod", Status: corev1.ConditionTrue, LastTransitionTime: at, Message: message,
		}}}
	}
	tests := []struct {
		name      string
		stored    appsv1.StatefulSetStatus
		computed  appsv1.StatefulSetStatus
		unchanged bool
	}{
		{"equal", base(t0, "m"), base(t0, "m"), true},
		{"only a condition's timestamp differs", base(t0, "m"), base(t1, "m"), true},
		{"a condition's message differs", base(t0, "m"), base(t0, "n"), false},
		{"a count differs", base(t0, "m"), func() appsv1.StatefulSetStatus { s := base(t0, "m"); s.ReadyReplicas = 3; return s }(), false},
		{"a condition cleared", base(t0, "m"), appsv1.StatefulSetStatus{Replicas: 3, ReadyReplicas: 2}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StatusUnchanged(tt.stored, tt.computed); got != tt.unchanged {
				t.Errorf("StatusUnchanged = %t, want %t", got, tt.unchanged)
			}
		})
	}
}
