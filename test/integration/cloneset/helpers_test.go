package cloneset

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func kruise(t *testing.T) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// applyExample applies a documented manifest into ns, optionally edited first.
func applyExample(t *testing.T, ns, name string, edit func(string) string) {
	t.Helper()
	c := framework.Get(t)
	data, err := os.ReadFile(filepath.Join(c.Root, "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	manifest := string(data)
	if edit != nil {
		manifest = edit(manifest)
	}
	if _, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
}

// podsOf lists the pods a CloneSet controls.
func podsOf(t *testing.T, ns string, cs *v1alpha1.CloneSet) []corev1.Pod {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []corev1.Pod
	for _, p := range list.Items {
		if ref := metav1.GetControllerOf(&p); ref != nil && ref.UID == cs.UID && p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

// heldPod waits for a pod of cs whose lifecycle hook holds it in state (a pod
// PreparingDelete or PreparingUpdate) and returns it as then seen.
func heldPod(t *testing.T, ns string, cs *v1alpha1.CloneSet, state pub.LifecycleStateType) corev1.Pod {
	t.Helper()
	var held corev1.Pod
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for _, p := range podsOf(t, ns, cs) {
			if p.Labels[pub.LifecycleStateKey] == string(state) {
				held = p
				return true, nil
			}
		}
		return false, nil
	})
	return held
}

// waitStatus waits until the CloneSet's status satisfies cond.
func waitStatus(t *testing.T, ns, name string, timeout time.Duration, cond func(s v1alpha1.CloneSetStatus, cs *v1alpha1.CloneSet) bool) *v1alpha1.CloneSet {
	t.Helper()
	var cs *v1alpha1.CloneSet
	framework.WaitFor(t, timeout, func() (bool, error) {
		var err error
		cs, err = kruise(t).AppsV1alpha1().CloneSets(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if cs.Status.ObservedGeneration == cs.Generation && cond(cs.Status, cs) {
			return true, nil
		}
		// Not an error: WaitFor keeps polling, and on timeout reports the last status seen.
		return false, fmt.Errorf("last seen: generation %d, status %+v", cs.Generation, cs.Status)
	})
	return cs
}

func isPodReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// events returns the reasons of the events recorded on an object.
func eventReasons(t *testing.T, ns, name string) map[string]int {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().Events(ns).List(context.Background(), metav1.ListOptions{
		FieldSelector: "involvedObject.name=" + name,
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, e := range list.Items {
		out[e.Reason] += int(e.Count)
	}
	return out
}
