package podworkload

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
			writes := 0
			_, err := UpdateStatus(context.Background(), tt.stored, tt.computed, func(context.Context) (*appsv1.StatefulSet, error) {
				writes++
				return &appsv1.StatefulSet{}, nil
			})
			if err != nil || (writes == 0) != tt.unchanged {
				t.Errorf("UpdateStatus wrote %d times (err %v), want a write only on change", writes, err)
			}
		})
	}
	// A workload deleted meanwhile is no error.
	out, err := UpdateStatus(context.Background(), base(t0, "m"), base(t0, "n"), func(context.Context) (*appsv1.StatefulSet, error) {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "statefulsets"}, "web")
	})
	if out != nil || err != nil {
		t.Errorf("UpdateStatus of a gone workload = %v, %v", out, err)
	}
}
