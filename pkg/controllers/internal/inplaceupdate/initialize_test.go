package inplaceupdate

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

func TestInitializeWritesMissingGateConditionsOnce(t *testing.T) {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "u"},
		Spec: corev1.PodSpec{ReadinessGates: []corev1.PodReadinessGate{
			{ConditionType: inPlaceUpdateReady}, {ConditionType: kruisePodReady},
		}},
	}
	f := &fakePods{pod: pod, writes: map[string]int{}}
	e := &Executor{Pods: f}
	res, err := e.Initialize(context.Background(), pod)
	if err != nil || res.Pod == nil {
		t.Fatalf("Initialize: %v", err)
	}
	for _, ct := range []corev1.PodConditionType{inPlaceUpdateReady, kruisePodReady} {
		if c := podcondition.Find(f.pod.Status.Conditions, ct); c == nil || c.Status != corev1.ConditionTrue {
			t.Errorf("condition %s = %+v", ct, c)
		}
	}
	if f.writes["status"] != 1 || f.total() != 1 {
		t.Fatalf("writes %v, want one pods/status write", f.writes)
	}
	// Done: nothing more to write.
	if res, err := e.Initialize(context.Background(), f.pod); err != nil || res.Pod != nil || f.total() != 1 {
		t.Fatalf("second Initialize wrote (%v, %v, %v)", res.Pod, err, f.writes)
	}
	// A pod without Kruise gates needs nothing.
	plain := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "u"}}
	if res, err := e.Initialize(context.Background(), plain); err != nil || res.Pod != nil {
		t.Fatalf("plain pod: %v %v", res.Pod, err)
	}
}
