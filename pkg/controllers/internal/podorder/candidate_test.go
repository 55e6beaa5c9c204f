package podorder

import (
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func TestCandidateFromPod(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	created := metav1.NewTime(t0.Add(-time.Hour))
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:              "p",
			CreationTimestamp: created,
			Labels:            map[string]string{"app": "x", pub.LifecycleStateKey: string(pub.LifecycleStatePreparingUpdate)},
			Annotations:       map[string]string{corev1.PodDeletionCost: "-3"},
		},
		Spec: corev1.PodSpec{
			NodeName:       "n1",
			InitContainers: []corev1.Container{{Name: "init"}, {Name: "sidecar", RestartPolicy: &always}},
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: created},
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(t0)},
			},
			ContainerStatuses:     []corev1.ContainerStatus{{Name: "a", RestartCount: 2}, {Name: "b", RestartCount: 5}},
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", RestartCount: 9}, {Name: "sidecar", RestartCount: 4}},
		},
	}
	want := Candidate{
		Name: "p", Labels: pod.Labels, Available: true, Ready: true, ReadyTime: t0,
		Phase: corev1.PodRunning, Node: "n1", Restarts: 5, SidecarRestarts: 4,
		CreationTime: created.Time, DeletionCost: -3, Priority: 7, PreparingUpdate: true,
	}
	weightApp := &pub.UpdatePriorityStrategy{WeightPriority: []pub.UpdatePriorityWeightTerm{
		{Weight: 7, MatchSelector: metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}},
	}}
	if got := CandidateFromPod(pod, true, PriorityFor(weightApp)); !reflect.DeepEqual(got, want) {
		t.Errorf("CandidateFromPod =\n%+v\nwant\n%+v", got, want)
	}

	pod.Status.Conditions[1].Status = corev1.ConditionFalse
	pod.Labels[pub.LifecycleStateKey] = string(pub.LifecycleStateNormal)
	got := CandidateFromPod(pod, false, PriorityFor(nil))
	if got.Ready || !got.ReadyTime.IsZero() || got.Available || got.PreparingUpdate || got.Priority != 0 {
		t.Errorf("unready pod: %+v", got)
	}
}

func TestDeletionCost(t *testing.T) {
	tests := []struct {
		value string
		set   bool
		want  int32
	}{
		{set: false, want: 0},
		{value: "", set: true, want: 0},
		{value: "0", set: true, want: 0},
		{value: "100", set: true, want: 100},
		{value: "-100", set: true, want: -100},
		{value: "-05", set: true, want: -5},
		{value: "+5", set: true, want: 0},
		{value: "05", set: true, want: 0},
		{value: "abc", set: true, want: 0},
		{value: "2147483648", set: true, want: 0},
		{value: "-2147483648", set: true, want: -2147483648},
	}
	for _, tt := range tests {
		a := map[string]string{}
		if tt.set {
			a[corev1.PodDeletionCost] = tt.value
		}
		if got := DeletionCost(a); got != tt.want {
			t.Errorf("DeletionCost(%q) = %d, want %d", tt.value, got, tt.want)
		}
	}
}
