package resourcedistribution

import (
	"fmt"
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func controllerWrites(t *testing.T) map[string]float64 {
	t.Helper()
	return framework.Get(t).ControllerWrites(t)
}

// quietWrites waits until the write counters have not moved for two seconds.
func quietWrites(t *testing.T) map[string]float64 {
	t.Helper()
	return framework.Get(t).QuietControllerWrites(t, 2*time.Second)
}

func delta(after, before map[string]float64, key string) float64 { return after[key] - before[key] }

// The writes a distribution costs (DESIGN's performance model): one create per
// namespace, one update per namespace when the source changes, a handful of status
// writes per change, and nothing at all for a sync that finds everything in place.
func TestWritesPerNamespace(t *testing.T) {
	const n = 5
	c := framework.Get(t)
	group := fmt.Sprintf("writes-%d", time.Now().UnixNano()%100000)
	var namespaces []string
	for range n {
		namespaces = append(namespaces, labelledNamespace(t, "rd-writes="+group))
	}
	manifest := func(lives int) string {
		return fmt.Sprintf(`apiVersion: apps.kruise.io/v1alpha1
kind: ResourceDistribution
metadata:
  name: writes
spec:
  resource:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: settings
    data:
      lives: "%d"
  targets:
    namespaceLabelSelector:
      matchLabels:
        rd-writes: %s
`, lives, group)
	}
	waitAll := func(lives int) {
		t.Helper()
		framework.WaitFor(t, waitForCopies, func() (bool, error) {
			for _, ns := range namespaces {
				out, _, err := c.Kubectl(t, "get", "configmap", "settings", "-n", ns, "-o", "jsonpath={.data.lives}")
				if err != nil || out != fmt.Sprint(lives) {
					return false, fmt.Errorf("%s: %q %v", ns, out, err)
				}
			}
			return true, nil
		})
	}

	before := quietWrites(t)
	if _, err := c.KubectlStdin(t, manifest(1), "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "distributor", "writes", "--ignore-not-found") })
	waitAll(1)
	created := quietWrites(t)
	if got := delta(created, before, "configmaps POST"); got != n {
		t.Errorf("configmap creates = %v, want %d (one per namespace)", got, n)
	}
	if got := delta(created, before, "resourcedistributions/status PUT"); got < 1 || got > 3 {
		t.Errorf("status writes = %v, want 1..3", got)
	}

	// Syncs that find everything in place (every namespace relabelled) write nothing.
	for _, ns := range namespaces {
		kubectl(t, "label", "namespace", ns, "unrelated=yes")
	}
	idle := quietWrites(t)
	for k, v := range idle {
		if v != created[k] {
			t.Errorf("a sync with nothing to do wrote %s: %v -> %v", k, created[k], v)
		}
	}

	if _, err := c.KubectlStdin(t, manifest(2), "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	waitAll(2)
	updated := quietWrites(t)
	if got := delta(updated, idle, "configmaps PUT"); got != n {
		t.Errorf("configmap updates = %v, want %d (one per namespace)", got, n)
	}
	if got := delta(updated, idle, "configmaps POST") + delta(updated, idle, "configmaps DELETE"); got != 0 {
		t.Errorf("a source change created or deleted %v configmaps, want 0", got)
	}
	t.Logf("writes: create %v, update %v", delta(created, before, "configmaps POST"), delta(updated, idle, "configmaps PUT"))
}
