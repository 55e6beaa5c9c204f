package verticalscaling

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

const hookedCloneSet = `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: hooked
spec:
  replicas: 1
  selector:
    matchLabels:
      app: hooked
  lifecycle:
    inPlaceUpdate:
      labelsHandler:
        example.io/hold-update: "true"
  updateStrategy:
    type: InPlaceIfPossible
  template:
    metadata:
      labels:
        app: hooked
        example.io/hold-update: "true"
    spec:
      containers:
      - name: nginx
        image: nginx:alpine
        resources:
          requests: {cpu: 100m, memory: 64Mi}
          limits: {cpu: 200m, memory: 128Mi}
`

// An inPlaceUpdate hook holds a resize as it holds an image update: the pod waits in
// PreparingUpdate at its old resources while it carries the hook's label; once the
// label is removed it is resized in place (same UID, no restart) and waits in Updated
// until the label is back, then is Normal, its InPlaceUpdateReady condition True.
func TestInPlaceUpdateHookHoldsResize(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	const hold = "example.io/hold-update"
	if _, err := c.KubectlStdin(t, hookedCloneSet, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	var pod corev1.Pod
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=hooked"})
		if err != nil || len(list.Items) != 1 || unavailable(&list.Items[0]) {
			return false, err
		}
		pod = list.Items[0]
		return pod.Labels[pub.LifecycleStateKey] == string(pub.LifecycleStateNormal), nil
	})
	oldResources := pod.Spec.Containers[0].Resources

	patch := `[{"op":"replace","path":"/spec/template/spec/containers/0/resources","value":{` +
		`"requests":{"cpu":"200m","memory":"96Mi"},"limits":{"cpu":"400m","memory":"256Mi"}}}]`
	if _, stderr, err := c.Kubectl(t, "patch", "-n", ns, "clonesets.apps.kruise.io", "hooked", "--type=json", "-p", patch); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	get := func() (*corev1.Pod, error) {
		p, err := c.Client.CoreV1().Pods(ns).Get(ctx, pod.Name, metav1.GetOptions{})
		if err == nil && p.UID != pod.UID {
			return nil, fmt.Errorf("pod %s recreated, want it resized in place", pod.Name)
		}
		return p, err
	}
	waitState := func(want pub.LifecycleStateType) *corev1.Pod {
		t.Helper()
		var got *corev1.Pod
		framework.WaitFor(t, time.Minute, func() (bool, error) {
			p, err := get()
			if err != nil {
				return false, err
			}
			got = p
			if state := p.Labels[pub.LifecycleStateKey]; state != string(want) {
				return false, fmt.Errorf("pod %s in lifecycle state %q, want %s", pod.Name, state, want)
			}
			return true, nil
		})
		return got
	}
	waitState(pub.LifecycleStatePreparingUpdate)
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		p, err := get()
		if err != nil || !runsResources(p, oldResources) {
			return false, fmt.Sprintf("pod %s resized while its inPlaceUpdate hook holds it (err %v)", pod.Name, err)
		}
		return true, ""
	})

	if _, stderr, err := c.Kubectl(t, "label", "pod", "-n", ns, pod.Name, hold+"-"); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		p, err := get()
		if err != nil {
			return false, err
		}
		if p.Status.ContainerStatuses[0].RestartCount != 0 {
			return false, fmt.Errorf("pod %s restarted %d times: a resize restarts nothing", p.Name, p.Status.ContainerStatuses[0].RestartCount)
		}
		return runsResources(p, newResources), nil
	})
	waitState(pub.LifecycleStateUpdated)
	if _, stderr, err := c.Kubectl(t, "label", "pod", "-n", ns, pod.Name, hold+"=true"); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	p := waitState(pub.LifecycleStateNormal)
	for _, cond := range p.Status.Conditions {
		if cond.Type == "InPlaceUpdateReady" && cond.Status != corev1.ConditionTrue {
			t.Errorf("InPlaceUpdateReady = %s after the resize", cond.Status)
		}
	}
}
