package sidecarset

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// createPods creates n kwok pods labelled app=<app> (plus extra labels per pod) with
// one app container, and waits until they run with their sidecars.
func createPods(t *testing.T, ns, app string, n int, extra func(i int) map[string]string) []*corev1.Pod {
	t.Helper()
	c := framework.Get(t)
	var out []*corev1.Pod
	for i := range n {
		l := map[string]string{"app": app}
		if extra != nil {
			for k, v := range extra(i) {
				l[k] = v
			}
		}
		name := fmt.Sprintf("%s-%d", app, i)
		if _, err := c.Client.CoreV1().Pods(ns).Create(context.Background(),
			kwokPod(name, l, corev1.Container{Name: "app", Image: "nginx:1.25"}), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		out = append(out, waitRunning(t, ns, fmt.Sprintf("%s-%d", app, i)))
	}
	return out
}

// waitSidecarSet waits until the SidecarSet's status satisfies cond.
func waitSidecarSet(t *testing.T, name string, timeout time.Duration, cond func(v1alpha1.SidecarSetStatus) bool) *v1alpha1.SidecarSet {
	t.Helper()
	var ss *v1alpha1.SidecarSet
	framework.WaitFor(t, timeout, func() (bool, error) {
		var err error
		ss, err = kruiseClient(t, nil).AppsV1alpha1().SidecarSets().Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return ss.Status.ObservedGeneration == ss.Generation && cond(ss.Status), nil
	})
	return ss
}

// patchSidecarSet merge-patches a SidecarSet.
func patchSidecarSet(t *testing.T, name, patch string) {
	t.Helper()
	if _, err := kruiseClient(t, nil).AppsV1alpha1().SidecarSets().Patch(context.Background(), name,
		types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

// setImage sets the image of the SidecarSet's first container.
func setImage(t *testing.T, name, image string) {
	t.Helper()
	ss, err := kruiseClient(t, nil).AppsV1alpha1().SidecarSets().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	patch := fmt.Sprintf(`[{"op":"replace","path":"/spec/containers/0/image","value":%q}]`, image)
	if _, err := kruiseClient(t, nil).AppsV1alpha1().SidecarSets().Patch(context.Background(), ss.Name,
		types.JSONPatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

func getPod(t *testing.T, ns, name string) *corev1.Pod {
	t.Helper()
	pod, err := framework.Get(t).Client.CoreV1().Pods(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return pod
}

func containerOf(pod *corev1.Pod, name string) (corev1.Container, corev1.ContainerStatus) {
	var c corev1.Container
	var s corev1.ContainerStatus
	for _, x := range pod.Spec.Containers {
		if x.Name == name {
			c = x
		}
	}
	for _, x := range pod.Status.ContainerStatuses {
		if x.Name == name {
			s = x
		}
	}
	return c, s
}

// sidecarSetEvents returns the messages of the events with reason on the SidecarSet.
func sidecarSetEvents(t *testing.T, name, reason string) []string {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().Events("").List(context.Background(), metav1.ListOptions{
		FieldSelector: "involvedObject.kind=SidecarSet,involvedObject.name=" + name + ",reason=" + reason})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range list.Items {
		out = append(out, e.Message)
	}
	return out
}

// waitEvent waits for an event with reason on the SidecarSet whose message contains text.
func waitEvent(t *testing.T, name, reason, text string) {
	t.Helper()
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for _, m := range sidecarSetEvents(t, name, reason) {
			if strings.Contains(m, text) {
				return true, nil
			}
		}
		return false, nil
	})
}

func sidecarSetManifest(name, app, container, image, strategy string) string {
	return fmt.Sprintf(`
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: %s}
spec:
  selector: {matchLabels: {app: %s}}
  containers: [{name: %s, image: %q, command: [sleep, 999d]}]
  updateStrategy: %s`, name, app, container, image, strategy)
}
