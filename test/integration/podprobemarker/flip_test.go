package podprobemarker

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/internal/fakecri"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// flipNode is the node of the flip test's pod: its daemon's writes are counted.
const flipNode = "kwok-node-2"

// flipPeriod is the probe's periodSeconds.
const flipPeriod = 3 * time.Second

// A PodProbeMarker whose exec probe starts failing moves the pod's marker label within
// two probe periods, and back when it succeeds again; each change costs exactly one
// NodePodProbe status write by the node daemon and one pod write by kruise-controller,
// and the periods in between, with the state unchanged, cost none.
func TestExecProbeFailingMovesTheMarkerLabel(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)

	ppm := &v1alpha1.PodProbeMarker{
		ObjectMeta: metav1.ObjectMeta{Name: "health", Namespace: ns},
		Spec: v1alpha1.PodProbeMarkerSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "flip"}},
			Probes: []v1alpha1.PodContainerProbe{{
				Name: "healthy", ContainerName: "main",
				Probe: v1alpha1.ContainerProbeSpec{Probe: corev1.Probe{
					ProbeHandler:  corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"/healthy.sh"}}},
					PeriodSeconds: int32(flipPeriod / time.Second), FailureThreshold: 1, SuccessThreshold: 1,
				}},
				MarkerPolicy: []v1alpha1.ProbeMarkerPolicy{
					{State: v1alpha1.ProbeSucceeded, Labels: map[string]string{"probe-state": "healthy"}},
					{State: v1alpha1.ProbeFailed, Labels: map[string]string{"probe-state": "unhealthy"}},
				},
				PodConditionType: "example.io/healthy",
			}},
		},
	}
	if _, err := kruise(t).AppsV1alpha1().PodProbeMarkers(ns).Create(ctx, ppm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "flip", Namespace: ns, Labels: map[string]string{"app": "flip"}},
		Spec: corev1.PodSpec{NodeName: flipNode, TerminationGracePeriodSeconds: new(int64),
			Containers: []corev1.Container{{Name: "main", Image: "busybox:1.36"}}},
	}
	if _, err := c.Client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	marked := func(state string, cond corev1.ConditionStatus) func(*corev1.Pod) bool {
		return func(p *corev1.Pod) bool {
			cd := condition(p, "example.io/healthy")
			return p.Labels["probe-state"] == state && cd != nil && cd.Status == cond
		}
	}
	waitPod(t, ns, "flip", 2*time.Minute, marked("healthy", corev1.ConditionTrue))

	// Settled: from here on, each flip is one state change.
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		npp, err := kruise(t).AppsV1alpha1().NodePodProbes().Get(ctx, flipNode, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, ps := range npp.Status.PodProbeStatuses {
			if ps.Name == "flip" && len(ps.ProbeStates) == 1 && ps.ProbeStates[0].State == v1alpha1.ProbeSucceeded {
				return true, nil
			}
		}
		return false, nil
	})

	for i, step := range []struct {
		exitCode any // the annotation's value; nil removes it
		label    string
		cond     corev1.ConditionStatus
	}{
		{"1", "unhealthy", corev1.ConditionFalse},
		{nil, "healthy", corev1.ConditionTrue},
	} {
		podWrites, nppWrites := controllerWrites(t, "pods/status", "PATCH"), controllerWrites(t, "nodepodprobes", "PUT")
		statusWrites := daemonStatusWrites(t, flipNode)

		patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{fakecri.ExecExitCodeAnnotation: step.exitCode}}})
		start := time.Now()
		if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, "flip", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		waitPod(t, ns, "flip", 2*flipPeriod+5*time.Second, marked(step.label, step.cond))
		took := time.Since(start)
		t.Logf("step %d: probe-state=%s after %s (period %s)", i, step.label, took.Round(10*time.Millisecond), flipPeriod)
		if took > 2*flipPeriod {
			t.Errorf("step %d: the label moved after %s, more than two probe periods (%s)", i, took, 2*flipPeriod)
		}

		// Three more periods with the state unchanged: exactly the one write each.
		want := func() (bool, string) {
			d := daemonStatusWrites(t, flipNode) - statusWrites
			p := controllerWrites(t, "pods/status", "PATCH") - podWrites
			n := controllerWrites(t, "nodepodprobes", "PUT") - nppWrites
			return d <= 1 && p <= 1 && n == 0, fmt.Sprintf("daemon status writes %v, controller pod writes %v, NodePodProbe updates %v", d, p, n)
		}
		framework.Consistently(t, 3*flipPeriod, want)
		if d, p := daemonStatusWrites(t, flipNode)-statusWrites, controllerWrites(t, "pods/status", "PATCH")-podWrites; d != 1 || p != 1 {
			t.Errorf("step %d: daemon status writes %v, controller pod writes %v; want 1 and 1", i, d, p)
		}
	}
}
