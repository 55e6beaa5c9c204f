package daemonset

import (
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// kruise-controller killed (SIGKILL, as a crash) in the middle of a surging rollout,
// while some node runs two pods, and started again: it picks the rollout up from what
// the API shows and finishes it with exactly one pod, of the new revision, on every
// node, none left with two pods or none.
func TestControllerKilledMidRolloutResumes(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	const label = "ads-restart"
	nodes := []string{"ads-r-0", "ads-r-1", "ads-r-2", "ads-r-3", "ads-r-4"}
	for _, n := range nodes {
		addNode(t, n, map[string]string{label: "yes"})
	}
	one, zero := intstr.FromInt32(1), intstr.FromInt32(0)
	ds := newDaemonSet("agent", label, &v1beta1.RollingUpdateDaemonSet{
		Type: v1beta1.StandardRollingUpdateType, MaxSurge: &one, MaxUnavailable: &zero,
	})
	// Each node's new pod must stay ready this long before the next node's turn: the
	// rollout lasts long enough to be caught in the middle.
	ds.Spec.MinReadySeconds = 3
	ds = createDS(t, ns, ds)
	want := int32(len(nodes))
	waitOnePodPerNode(t, ns, ds, nodes)
	waitStatus(t, ns, ds.Name, 2*time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, want) })

	setImage(t, ns, ds.Name, "nginx:1.9.1")
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for node, pods := range podsByNode(t, ns, ds) {
			if len(pods) == 2 {
				t.Logf("node %s runs two pods: killing kruise-controller", node)
				return true, nil
			}
		}
		return false, fmt.Errorf("no node surged yet")
	})
	c.KillComponent(t, "kruise-controller")
	mid := getDS(t, ns, ds.Name).Status
	if mid.UpdatedNumberScheduled >= want {
		t.Fatalf("rollout finished before the controller was killed (status %+v): the test proves nothing", mid)
	}
	c.StartComponent(t, "kruise-controller")

	waitStatus(t, ns, ds.Name, 3*time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, want) })
	after := waitOnePodPerNode(t, ns, ds, nodes)
	for node, p := range after {
		if image, _ := imageOf(p); image != "nginx:1.9.1" {
			t.Errorf("node %s runs %s at %s after the restart, want nginx:1.9.1", node, p.Name, image)
		}
	}
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		byNode := podsByNode(t, ns, ds)
		for _, n := range nodes {
			if len(byNode[n]) != 1 {
				return false, fmt.Sprintf("node %s runs %v after the rollout", n, describe(byNode[n]))
			}
		}
		return true, ""
	})
}
