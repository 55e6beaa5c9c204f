package sidecarset

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A new image that never runs (the pull fails, the container stays on its old image
// and unready) holds the pods it reached: the rollout goes no further than
// maxUnavailable, and the failed pods count as updated but not updatedReady.
func TestFailedImageStopsAtMaxUnavailable(t *testing.T) {
	v1 := newSidecarSet("log:v1", false)
	v2 := newSidecarSet("fail.invalid/log:v2", false)
	v2.Spec.UpdateStrategy.MaxUnavailable = new(intstr.FromInt32(2))
	tg := mustTarget(t, v2)
	podList := pods(t, 4, v1)
	states := func() []podStatus {
		var out []podStatus
		for _, p := range podList {
			out = append(out, classify(p, tg, nil))
		}
		return out
	}
	for round := 0; round < 3; round++ {
		for _, ps := range planRollout(v2, states()).upgrade {
			next, err := upgrade(ps.pod, tg, ps.sidecars, now)
			if err != nil {
				t.Fatal(err)
			}
			// the kubelet cannot pull it: old image still reported, container not ready
			for i := range next.Status.ContainerStatuses {
				if s := &next.Status.ContainerStatuses[i]; s.Name == "log" {
					s.Ready = false
					s.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff"}}
				}
			}
			next.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
			for i, p := range podList {
				if p.UID == next.UID {
					podList[i] = next
				}
			}
		}
	}
	st := computeStatus(1, states(), "rev", 0)
	if st.UpdatedPods != 2 || st.UpdatedReadyPods != 0 {
		t.Errorf("updated %d updatedReady %d, want 2 and 0: maxUnavailable 2 stops the failed rollout", st.UpdatedPods, st.UpdatedReadyPods)
	}
	for _, p := range podList[2:] {
		if image(p, "log") != "log:v1" {
			t.Errorf("%s runs %s, want it left on log:v1", p.Name, image(p, "log"))
		}
	}
}
