package statefulset

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// kruise-controller killed in the middle of a rollout and started again: the rollout
// completes with every ordinal exactly once, none skipped, none beyond replicas.
func TestControllerRestartMidRollout(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	const n = 40
	manifest := fmt.Sprintf(`apiVersion: apps.kruise.io/v1beta1
kind: StatefulSet
metadata:
  name: restart
spec:
  serviceName: restart
  podManagementPolicy: Parallel
  replicas: %d
  updateStrategy:
    rollingUpdate:
      maxUnavailable: 4
  selector:
    matchLabels:
      app: restart
  template:
    metadata:
      labels:
        app: restart
    spec:
      containers:
      - name: main
        image: nginx:1.25
`, n)
	apply(t, ns, manifest)
	v1 := waitStatus(t, ns, "restart", 4*time.Minute, settled(n))

	var wanted []string
	for i := range n {
		wanted = append(wanted, fmt.Sprintf("restart-%d", i))
	}
	rec := recordPods(t, ns, wanted...)
	// A recreate rollout: deletions and creations, what a controller trusting a stale
	// cache after its restart would duplicate or lose.
	setImage(t, ns, "restart", "nginx:1.26")
	waitStatus(t, ns, "restart", 4*time.Minute, func(s v1beta1.StatefulSetStatus) bool {
		return s.UpdateRevision != v1.Status.UpdateRevision && s.UpdatedReplicas >= n/5 && s.UpdatedReplicas < n*3/4
	})
	c.StopComponent(t, "kruise-controller")
	c.StartComponent(t, "kruise-controller")

	done := waitStatus(t, ns, "restart", 6*time.Minute, settled(n))
	created, deleted, maxDown := rec.result(t)
	seen := map[string]bool{}
	for _, name := range deleted {
		if seen[name] {
			t.Errorf("pod %s deleted twice: each old pod goes once", name)
		}
		seen[name] = true
	}
	if maxDown > 4 {
		t.Errorf("%d pods down at once, maxUnavailable 4", maxDown)
	}
	for _, name := range created {
		if !slices.Contains(wanted, name) {
			t.Errorf("created %s, beyond the set's ordinals", name)
		}
	}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		list, err := c.Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{})
		return err == nil && len(list.Items) == n, err
	})
	pods := livePods(t, ns)
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	if got := ordinals("restart", pods); !slices.Equal(got, want) {
		t.Fatalf("ordinals %v, want 0..%d once each", got, n-1)
	}
	for name, p := range pods {
		if p.Labels["controller-revision-hash"] != done.Status.UpdateRevision || p.Spec.Containers[0].Image != "nginx:1.26" {
			t.Errorf("pod %s at revision %s image %s", name, p.Labels["controller-revision-hash"], p.Spec.Containers[0].Image)
		}
	}
}
