package podprobemarker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// examples/podprobemarker.yaml applied unchanged (the documented PodProbeMarker and
// the CloneSet of game servers it probes) reaches the state OpenKruise's user guide
// shows: /home/game/idle.sh succeeds (the fake runtime's exec exits 0), so each pod
// gets gameserver-idle=true, pod-deletion-cost -10 and the condition game.io/idle
// True; every pod is listed with its probe in its node's NodePodProbe; the marker
// counts 3 matched pods.
func TestDocumentedExample(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	data, err := os.ReadFile(filepath.Join(c.Root, "examples", "podprobemarker.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := c.KubectlStdin(t, string(data), "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	// Before returning, the pods go (and leave their NodePodProbes), so later tests
	// of this package count only their own writes.
	t.Cleanup(func() {
		_, _, _ = c.Kubectl(t, "delete", "-n", ns, "clonesets.apps.kruise.io", "game-server", "--wait=true")
		framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
			pods, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
			return err == nil && len(pods.Items) == 0, err
		})
	})

	sel := labels.SelectorFromSet(labels.Set{"app": "game-server"}).String()
	// initialDelaySeconds 10, periodSeconds 10: the first result comes 10 s after the
	// containers start.
	var pods []corev1.Pod
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: sel})
		if err != nil || len(list.Items) != 3 {
			return false, err
		}
		for _, p := range list.Items {
			cond := condition(&p, "game.io/idle")
			if p.Labels["gameserver-idle"] != "true" || p.Annotations["controller.kubernetes.io/pod-deletion-cost"] != "-10" ||
				cond == nil || cond.Status != corev1.ConditionTrue {
				return false, nil
			}
		}
		pods = list.Items
		return true, nil
	})
	for _, p := range pods {
		npp, err := kruise(t).AppsV1alpha1().NodePodProbes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("NodePodProbe of %s: %v", p.Spec.NodeName, err)
		}
		found := false
		for _, pp := range npp.Spec.PodProbes {
			if pp.UID == string(p.UID) && len(pp.Probes) == 1 && pp.Probes[0].Name == "game-server-probe#Idle" &&
				pp.Probes[0].Probe.Exec != nil && pp.Probes[0].Probe.PeriodSeconds == 10 {
				found = true
			}
		}
		if !found {
			t.Errorf("NodePodProbe %s does not list pod %s with game-server-probe#Idle: %+v", npp.Name, p.Name, npp.Spec)
		}
	}
	// v1beta1 (OpenKruise master's) has no spec.podProbes[].IP: the IPs ride in an annotation.
	p := pods[0]
	out, stderr, err := c.Kubectl(t, "get", "nodepodprobes.v1beta1.apps.kruise.io", p.Spec.NodeName,
		"-o", `jsonpath={.apiVersion} {.metadata.annotations.nodepodprobe\.kruise-native\.io/pod-ips}`)
	if err != nil || !strings.HasPrefix(out, "apps.kruise.io/v1beta1 [") || !strings.Contains(out, `"`+p.Status.PodIP+`"`) {
		t.Errorf("v1beta1 NodePodProbe %s (pod IP %s): %q %v %s", p.Spec.NodeName, p.Status.PodIP, out, err, stderr)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		ppm, err := kruise(t).AppsV1alpha1().PodProbeMarkers(ns).Get(ctx, "game-server-probe", metav1.GetOptions{})
		return err == nil && ppm.Status.MatchedPods == 3 && ppm.Status.ObservedGeneration == ppm.Generation, err
	})
	out, stderr, err = c.Kubectl(t, "get", "podprobemarkers", "-n", ns)
	if err != nil {
		t.Fatalf("kubectl get podprobemarkers: %v: %s", err, stderr)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME AGE" {
		t.Errorf("kubectl get podprobemarkers:\n%s", out)
	}
	// Applied as v1alpha1, read back as v1beta1 (OpenKruise master's version): the same object.
	out, stderr, err = c.Kubectl(t, "get", "podprobemarkers.v1beta1.apps.kruise.io", "-n", ns, "game-server-probe",
		"-o", "jsonpath={.apiVersion} {.spec.probes[0].name} {.status.matchedPods}")
	if err != nil || out != "apps.kruise.io/v1beta1 Idle 3" {
		t.Errorf("v1beta1 PodProbeMarker: %q %v %s", out, err, stderr)
	}
}
