package cloneset

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// Pods of an InPlaceIfPossible CloneSet carry the InPlaceUpdateReady readiness gate from
// their creation (the first watch event of each pod already has it: it was never added
// later), and become Ready with the gate's condition True, which came with the node's
// status write: the controller wrote no pod status for it.
func TestInPlaceReadinessGateFromCreation(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	const n = 3
	labels := map[string]string{"app": "gate"}
	w, err := c.Client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	before := controllerWrites(t)
	cs := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "gate"},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](n),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}},
			},
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{Type: v1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType},
		},
	}
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Create(ctx, cs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	firstSeen := map[string]bool{}
	deadline := time.After(2 * time.Minute)
	for len(firstSeen) < n {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatal("pod watch closed")
			}
			pod, isPod := ev.Object.(*corev1.Pod)
			if !isPod || firstSeen[pod.Name] {
				continue
			}
			if ev.Type != watch.Added {
				t.Fatalf("first event of pod %s is %s, want ADDED", pod.Name, ev.Type)
			}
			firstSeen[pod.Name] = true
			if !hasGate(pod, pub.InPlaceUpdateReady) {
				t.Errorf("pod %s was created without the %s gate: %v", pod.Name, pub.InPlaceUpdateReady, pod.Spec.ReadinessGates)
			}
		case <-deadline:
			t.Fatalf("saw the creation of %d pods, want %d", len(firstSeen), n)
		}
	}

	after := waitStatus(t, ns, "gate", 2*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.ReadyReplicas == n
	})
	for _, p := range podsOf(t, ns, after) {
		cond := findCondition(p.Status.Conditions, corev1.PodConditionType(pub.InPlaceUpdateReady))
		if !isPodReady(&p) || cond == nil || cond.Status != corev1.ConditionTrue {
			t.Errorf("pod %s: ready %v, %s condition %+v; want Ready with it True", p.Name, isPodReady(&p), pub.InPlaceUpdateReady, cond)
		}
	}
	writes := controllerWrites(t)
	var got float64
	for k, v := range writes {
		if strings.HasPrefix(k, "pods/status ") {
			got += v - before[k]
		}
	}
	if got != 0 {
		t.Errorf("the controller wrote pod status %v times for new pods: the gate's condition must come with the node's write", got)
	}
}

func hasGate(pod *corev1.Pod, t string) bool {
	for _, g := range pod.Spec.ReadinessGates {
		if string(g.ConditionType) == t {
			return true
		}
	}
	return false
}

func findCondition(conds []corev1.PodCondition, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}
