package broadcastjob

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestPhaseOf(t *testing.T) {
	pod := func(policy corev1.RestartPolicy, phase corev1.PodPhase, initRestarts, restarts int32) *corev1.Pod {
		return &corev1.Pod{Spec: corev1.PodSpec{RestartPolicy: policy}, Status: corev1.PodStatus{
			Phase:                 phase,
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", RestartCount: initRestarts}},
			ContainerStatuses:     []corev1.ContainerStatus{{Name: "a", RestartCount: restarts}, {Name: "b"}},
		}}
	}
	deleting := pod(corev1.RestartPolicyOnFailure, corev1.PodRunning, 0, 5)
	deleting.DeletionTimestamp = &metav1.Time{}
	cases := []struct {
		name  string
		pod   *corev1.Pod
		limit int32
		want  PodPhase
	}{
		{"pending", pod(corev1.RestartPolicyNever, corev1.PodPending, 0, 0), 0, PodActive},
		{"running", pod(corev1.RestartPolicyNever, corev1.PodRunning, 0, 0), 0, PodActive},
		{"succeeded", pod(corev1.RestartPolicyOnFailure, corev1.PodSucceeded, 0, 9), 0, PodSucceeded},
		{"failed", pod(corev1.RestartPolicyNever, corev1.PodFailed, 0, 0), 3, PodFailed},
		{"Never: restarts do not count", pod(corev1.RestartPolicyNever, corev1.PodRunning, 0, 4), 1, PodActive},
		{"OnFailure: restarts up to the limit", pod(corev1.RestartPolicyOnFailure, corev1.PodRunning, 1, 1), 2, PodActive},
		{"OnFailure: init and app restarts add up past the limit", pod(corev1.RestartPolicyOnFailure, corev1.PodRunning, 1, 2), 2, PodOverRestartLimit},
		{"OnFailure: limit 0, one restart", pod(corev1.RestartPolicyOnFailure, corev1.PodRunning, 0, 1), 0, PodOverRestartLimit},
		{"OnFailure: being deleted", deleting, 0, PodActive},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := phaseOf(tc.pod, tc.limit); got != tc.want {
				t.Errorf("phaseOf = %v, want %v", got, tc.want)
			}
		})
	}
}
