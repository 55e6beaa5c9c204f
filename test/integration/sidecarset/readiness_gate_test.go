package sidecarset

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func hasKruisePodReadyGate(pod *corev1.Pod) bool {
	for _, g := range pod.Spec.ReadinessGates {
		if g.ConditionType == pub.KruisePodReadyConditionType {
			return true
		}
	}
	return false
}

// With --pod-webhook-readiness-gate, a CloneSet's new pod carries the KruisePodReady
// gate and still becomes Ready (the CloneSet controller opens it); a pod no Kruise
// workload owns gets no gate.
func TestReadinessGate(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)

	c.StopKruiseAPIServer(t)
	c.StartComponent(t, "kruise-apiserver", "KRUISE_APISERVER_ARGS=--pod-webhook-readiness-gate")
	t.Cleanup(func() { c.RestartKruiseAPIServer(t) })
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		ok, _, err := c.APIServiceAvailable(ctx, "v1alpha1.apps.kruise.io")
		return ok, err
	})
	// The webhook answers once its caches have synced; probe with a dry run.
	owned := kwokPod("probe", nil, corev1.Container{Name: "app", Image: "app"})
	owned.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet",
		Name: "x", UID: "00000000-0000-0000-0000-000000000000", Controller: new(true)}}
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		out, err := c.Client.CoreV1().Pods(ns).Create(ctx, owned, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err == nil && hasKruisePodReadyGate(out), err
	})

	cs := `
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: gated}
spec:
  replicas: 1
  selector: {matchLabels: {app: gated}}
  template:
    metadata: {labels: {app: gated}}
    spec:
      containers: [{name: main, image: nginx}]
      tolerations: [{key: kwok.x-k8s.io/node, operator: Exists}]`
	if _, err := c.KubectlStdin(t, cs, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		pods, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=gated"})
		if err != nil || len(pods.Items) != 1 {
			return false, err
		}
		pod := &pods.Items[0]
		if !hasKruisePodReadyGate(pod) {
			t.Fatalf("CloneSet pod %s has no %s gate: %v", pod.Name, pub.KruisePodReadyConditionType, pod.Spec.ReadinessGates)
		}
		for _, cond := range pod.Status.Conditions {
			if cond.Type == corev1.PodReady && cond.Status == corev1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	})

	plain, err := c.Client.CoreV1().Pods(ns).Create(ctx, kwokPod("plain", nil, corev1.Container{Name: "app", Image: "app"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if hasKruisePodReadyGate(plain) {
		t.Error("a pod no Kruise workload owns got the gate")
	}
}
