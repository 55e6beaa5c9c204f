package statefulset

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func controllerWrites(t *testing.T) map[string]float64 {
	t.Helper()
	return framework.Get(t).ControllerWrites(t)
}

// The performance model (DESIGN): a rollout's time is the controller's writes ÷ QPS.
// For the documented in-place manifest (InPlaceUpdateReady gate in the template,
// Parallel) a created pod costs its create plus one status write setting the gate's
// condition (a real kubelet does not set it), an in-place update one pod patch; the
// set's status is written once per sync at most.
func TestControllerWritesPerPod(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	const n = 40
	manifest := strings.Replace(readExample(t, "advanced-statefulset-inplace.yaml"), "replicas: 5", "replicas: 0", 1)
	manifest = strings.Replace(manifest, "maxUnavailable: 10%", "maxUnavailable: 100%", 1)
	manifest = strings.Replace(manifest, "maxUnavailable: 3", "maxUnavailable: 100%", 1)
	apply(t, ns, manifest)
	waitStatus(t, ns, "web", time.Minute, func(s v1beta1.StatefulSetStatus) bool { return s.UpdateRevision != "" })
	// The counter is process-wide: let earlier tests' namespaces go first, and the
	// ServiceAccount pods need exist (failed creates say nothing about steady cost).
	framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
		list, err := c.Client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{LabelSelector: "kruise-native.io/integration-test=true"})
		return err == nil && len(list.Items) == 1, err
	})
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, err := c.Client.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	})

	before := controllerWrites(t)
	patchSet(t, ns, "web", `{"spec":{"replicas":40}}`)
	waitStatus(t, ns, "web", 3*time.Minute, settled(n))
	scaled := controllerWrites(t)
	scaleUp, detail := framework.WritesPerPod(before, scaled, n, false)
	t.Logf("scale-up 0->%d: %.2f writes per pod %v", n, scaleUp, detail)
	if scaleUp > 2.5 {
		t.Errorf("scale-up costs %.2f controller writes per pod, want at most 2.5 (%v)", scaleUp, detail)
	}

	set := waitStatus(t, ns, "web", time.Minute, settled(n))
	setImage(t, ns, "web", "nginx:1.27")
	waitStatus(t, ns, "web", 3*time.Minute, func(s v1beta1.StatefulSetStatus) bool {
		return s.UpdateRevision != set.Status.UpdateRevision && settled(n)(s)
	})
	rolled := controllerWrites(t)
	inPlace, detail := framework.WritesPerPod(scaled, rolled, n, false)
	t.Logf("in-place rollout of %d pods: %.2f writes per pod %v", n, inPlace, detail)
	if inPlace > 1.5 {
		t.Errorf("in-place rollout costs %.2f controller writes per pod, want at most 1.5 (%v)", inPlace, detail)
	}
}
