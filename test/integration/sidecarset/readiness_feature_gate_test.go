package sidecarset

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// --feature-gates=KruisePodReadinessGate=false on kruise-controller and
// kruise-apiserver (both accept every OpenKruise gate name) stops the KruisePodReady
// readiness gate: a CloneSet whose preDelete hook marks pods not ready, which gives its
// new pods the gate by default, creates them without it; back on the default, the
// next pod has it again.
func TestKruisePodReadinessGateOff(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	const off = "--feature-gates=KruisePodReadinessGate=false"

	c.StopKruiseAPIServer(t)
	for _, name := range c.Stack.KruiseAPIServers() {
		c.StartComponent(t, name, "KRUISE_APISERVER_ARGS="+off)
	}
	t.Cleanup(func() { c.RestartKruiseAPIServer(t) })
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		ok, _, err := c.APIServiceAvailable(ctx, "v1alpha1.apps.kruise.io")
		return ok, err
	})
	c.RestartKruiseControllers(t, "KRUISE_CONTROLLER_ARGS="+off)
	restored := false
	t.Cleanup(func() {
		if !restored {
			c.RestartKruiseControllers(t)
		}
	})

	apply := func(replicas int) {
		t.Helper()
		cs := fmt.Sprintf(`
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: hooked}
spec:
  replicas: %d
  selector: {matchLabels: {app: hooked}}
  lifecycle:
    preDelete: {markPodNotReady: true}
  template:
    metadata: {labels: {app: hooked}}
    spec:
      containers: [{name: main, image: nginx}]
      tolerations: [{key: kwok.x-k8s.io/node, operator: Exists}]`, replicas)
		if _, err := c.KubectlStdin(t, cs, "apply", "-n", ns, "-f", "-"); err != nil {
			t.Fatal(err)
		}
	}
	// pods waits for n pods of the CloneSet and returns them by name.
	pods := func(n int) map[string]*corev1.Pod {
		t.Helper()
		out := map[string]*corev1.Pod{}
		framework.WaitFor(t, time.Minute, func() (bool, error) {
			list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=hooked"})
			if err != nil || len(list.Items) != n {
				return false, err
			}
			for i := range list.Items {
				out[list.Items[i].Name] = &list.Items[i]
			}
			return true, nil
		})
		return out
	}

	apply(1)
	first := pods(1)
	for name, pod := range first {
		if hasKruisePodReadyGate(pod) {
			t.Fatalf("with %s, pod %s has the %s gate: %v", off, name, pub.KruisePodReadyConditionType, pod.Spec.ReadinessGates)
		}
	}

	c.RestartKruiseControllers(t)
	restored = true
	apply(2)
	for name, pod := range pods(2) {
		if _, old := first[name]; old {
			continue
		}
		if !hasKruisePodReadyGate(pod) {
			t.Fatalf("with the default gates, new pod %s has no %s gate: %v", name, pub.KruisePodReadyConditionType, pod.Spec.ReadinessGates)
		}
	}
}
