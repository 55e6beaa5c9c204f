package manager

import (
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
)

// decodedPod is fullPod as the informers get it: decoded from protobuf, whose
// decoder appends each repeated field's elements one at a time.
func decodedPod(t *testing.T, conditions int) *corev1.Pod {
	t.Helper()
	in := fullPod("p")
	in.Status.Conditions = nil
	for i := range conditions {
		in.Status.Conditions = append(in.Status.Conditions, corev1.PodCondition{Type: corev1.PodConditionType(rune('a' + i)), Status: corev1.ConditionTrue})
	}
	in.Status.PodIP = "10.244.0.10"
	in.Status.PodIPs = []corev1.PodIP{{IP: "10.244.0.10"}}
	wire, err := in.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	out := &corev1.Pod{}
	if err := out.Unmarshal(wire); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCompactPod(t *testing.T) {
	for _, conditions := range []int{0, 1, 5, 6} {
		pod := decodedPod(t, conditions)
		want := pod.DeepCopy()
		compactPod(pod)
		if diff := cmp.Diff(want, pod); diff != "" {
			t.Errorf("%d conditions: values changed (-want +got):\n%s", conditions, diff)
		}
		if c := cap(pod.Status.Conditions); c > conditions {
			t.Errorf("%d conditions: backing array holds %d", conditions, c)
		}
		if unsafe.StringData(pod.Status.PodIPs[0].IP) != unsafe.StringData(pod.Status.PodIP) {
			t.Errorf("podIPs[0] is a second copy of podIP")
		}
	}
}

func TestCompactPodKeepsEmptySlicesAsTheyAre(t *testing.T) {
	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{}}}
	compactPod(pod)
	if pod.Spec.Containers == nil || pod.Status.Conditions != nil {
		t.Errorf("empty stays empty, nil stays nil: containers %#v, conditions %#v", pod.Spec.Containers, pod.Status.Conditions)
	}
}
