package sidecarset

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/pkg/sidecarset"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// applySidecarSet applies a SidecarSet document and waits until the pod webhook injects
// it: the webhook reads SidecarSets from a cache, so a pod created the same instant
// could miss it (as with OpenKruise, create SidecarSets before their pods). A server
// dry-run create of probe runs the webhook without creating anything.
func applySidecarSet(t *testing.T, doc string, ns string, probe *corev1.Pod) {
	t.Helper()
	c := framework.Get(t)
	if _, err := c.KubectlStdin(t, doc, "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	var obj metav1.PartialObjectMetadata
	if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
		t.Fatal(err)
	}
	deleteSidecarSetAtEnd(t, obj.Name)
	waitInjected(t, ns, probe, obj.Name)
}

// waitInjected dry-runs the creation of pod until the webhook injects SidecarSet name.
func waitInjected(t *testing.T, ns string, pod *corev1.Pod, name string) {
	t.Helper()
	c := framework.Get(t)
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		out, err := c.Client.CoreV1().Pods(ns).Create(context.Background(), pod.DeepCopy(),
			metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			return false, err
		}
		for _, n := range sidecarset.InjectedList(out) {
			if n == name {
				return true, nil
			}
		}
		return false, nil
	})
}

// kwokPod is a pod kwok runs (it tolerates the fake nodes' taint).
func kwokPod(name string, labels map[string]string, containers ...corev1.Container) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec: corev1.PodSpec{
			Containers:  containers,
			Tolerations: []corev1.Toleration{{Key: "kwok.x-k8s.io/node", Operator: corev1.TolerationOpExists}},
		},
	}
}

// waitRunning waits until every container of the pod is ready and returns the pod.
func waitRunning(t *testing.T, ns, name string) *corev1.Pod {
	t.Helper()
	c := framework.Get(t)
	var pod *corev1.Pod
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		var err error
		pod, err = c.Client.CoreV1().Pods(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		ready := 0
		for _, s := range pod.Status.ContainerStatuses {
			if s.Ready {
				ready++
			}
		}
		return ready == len(pod.Spec.Containers) && ready > 0, nil
	})
	return pod
}

func envOf(c corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

func names(cs []corev1.Container) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}
