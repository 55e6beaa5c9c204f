package sidecarset

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func controllerWrites(t *testing.T) map[string]float64 {
	t.Helper()
	return framework.Get(t).ControllerWrites(t)
}

// quietWrites waits until kruise-controller's write counters have not moved for a
// second and returns them: the writes that follow the condition a test waited for (the
// last status write of a sync) are counted in the phase they belong to.
func quietWrites(t *testing.T) map[string]float64 {
	t.Helper()
	return framework.Get(t).QuietControllerWrites(t, time.Second)
}

// The performance model (DESIGN): an in-place sidecar upgrade costs ONE pod patch per
// pod (images, hashes and state together) and the SidecarSet's status a few writes per
// rollout, not one per pod.
func TestUpgradeWritesPerPod(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	const n = 10
	applySidecarSet(t, sidecarSetManifest("writes", "writes", "writes-log", "busybox:1.35", `{maxUnavailable: "100%"}`), ns,
		kwokPod("probe", map[string]string{"app": "writes"}, corev1.Container{Name: "app", Image: "nginx"}))
	createPods(t, ns, "writes", n, nil)
	waitSidecarSet(t, "writes", time.Minute, func(s v1alpha1.SidecarSetStatus) bool { return s.UpdatedReadyPods == n })
	// The counter is process-wide: let the namespaces of earlier tests (and their
	// CloneSets) finish terminating so their writes are not counted here.
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		list, err := c.Client.CoreV1().Namespaces().List(context.Background(),
			metav1.ListOptions{LabelSelector: "kruise-native.io/integration-test=true"})
		return err == nil && len(list.Items) == 1, err
	})
	before := quietWrites(t)
	setImage(t, "writes", "busybox:1.36")
	waitSidecarSet(t, "writes", 2*time.Minute, func(s v1alpha1.SidecarSetStatus) bool {
		return s.UpdatedPods == n && s.UpdatedReadyPods == n
	})
	after := quietWrites(t)
	delta := map[string]float64{}
	for k, v := range after {
		if d := v - before[k]; d > 0 {
			delta[k] = d
		}
	}
	t.Logf("upgrade of %d pods: %v", n, delta)
	if got := delta["pods PATCH"]; got != n {
		t.Errorf("pod patches = %v, want exactly one per pod (%d)", got, n)
	}
	if got := delta["sidecarsets/status PUT"]; got > n/2 {
		t.Errorf("status writes = %v for %d pods, want a few per rollout", got, n)
	}
	if got := delta["controllerrevisions POST"]; got != 1 {
		t.Errorf("revisions created = %v, want one for the new version", got)
	}
}
