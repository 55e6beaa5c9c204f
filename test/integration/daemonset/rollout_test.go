package daemonset

import (
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// An InPlaceIfPossible rollout of an image keeps every pod (same UID, same node) and
// restarts its container once.
func TestInPlaceRollout(t *testing.T) {
	ns := framework.Get(t).CreateNamespace(t)
	const label = "ads-inplace"
	nodes := []string{"ads-ip-0", "ads-ip-1"}
	for _, n := range nodes {
		addNode(t, n, map[string]string{label: "yes"})
	}
	ds := createDS(t, ns, newDaemonSet("agent", label, &v1beta1.RollingUpdateDaemonSet{Type: v1beta1.InplaceRollingUpdateType}))
	before := waitOnePodPerNode(t, ns, ds, nodes)

	setImage(t, ns, ds.Name, "nginx:1.9.1")
	waitStatus(t, ns, ds.Name, 2*time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, 2) })
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		// Every node of the set, so a node whose pod went and never came back fails too.
		byNode := podsByNode(t, ns, ds)
		for _, node := range nodes {
			pods := byNode[node]
			if len(pods) != 1 {
				return false, fmt.Errorf("node %s runs %v, want pod %s updated in place", node, describe(pods), before[node].Name)
			}
			image, restarts := imageOf(pods[0])
			if pods[0].UID != before[node].UID || image != "nginx:1.9.1" || restarts != 1 || !ready(&pods[0]) {
				return false, fmt.Errorf("node %s runs %v, want pod %s updated in place with one restart", node, describe(pods), before[node].Name)
			}
		}
		return true, nil
	})
}

// A partition keeps that many nodes on the old revision, and a pause holds the
// rollout even with the partition lifted; unpaused, it completes.
func TestPartitionAndPause(t *testing.T) {
	ns := framework.Get(t).CreateNamespace(t)
	const label = "ads-partition"
	nodes := []string{"ads-p-0", "ads-p-1", "ads-p-2"}
	for _, n := range nodes {
		addNode(t, n, map[string]string{label: "yes"})
	}
	three := intstr.FromInt32(3)
	ds := createDS(t, ns, newDaemonSet("agent", label, &v1beta1.RollingUpdateDaemonSet{
		Type: v1beta1.StandardRollingUpdateType, MaxUnavailable: &three, Partition: ptr.To[int32](2),
	}))
	waitOnePodPerNode(t, ns, ds, nodes)

	setImage(t, ns, ds.Name, "nginx:1.9.1")
	waitStatus(t, ns, ds.Name, 2*time.Minute, func(s v1beta1.DaemonSetStatus) bool {
		return s.UpdatedNumberScheduled == 1 && s.NumberReady == 3
	})
	holds := func() (bool, string) {
		updated := 0
		for _, pods := range podsByNode(t, ns, ds) {
			for _, p := range pods {
				if image, _ := imageOf(p); image == "nginx:1.9.1" {
					updated++
				}
			}
		}
		return updated == 1, fmt.Sprintf("%d pods run the new image, want 1", updated)
	}
	framework.Consistently(t, 3*time.Second, holds)

	updateDS(t, ns, ds.Name, func(ds *v1beta1.DaemonSet) {
		ds.Spec.UpdateStrategy.RollingUpdate.Partition = ptr.To[int32](0)
		ds.Spec.UpdateStrategy.RollingUpdate.Paused = ptr.To(true)
	})
	waitStatus(t, ns, ds.Name, time.Minute, func(s v1beta1.DaemonSetStatus) bool { return true })
	framework.Consistently(t, 3*time.Second, holds)

	updateDS(t, ns, ds.Name, func(ds *v1beta1.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate.Paused = ptr.To(false) })
	waitStatus(t, ns, ds.Name, 2*time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, 3) })
}
