package daemonset

import (
	"fmt"
	"testing"
	"time"

	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// With scaleStrategy.partitionedScaling the partition holds creations too: a new set
// on three nodes with partition 2 creates one pod (on the first node by name); a fourth
// node lets one more come (the partition counts nodes, as OpenKruise's does); lowering
// the partition to 0 lets the rest come.
func TestPartitionedScaling(t *testing.T) {
	ns := framework.Get(t).CreateNamespace(t)
	const label = "ads-pscale"
	nodes := []string{"ads-ps-0", "ads-ps-1", "ads-ps-2"}
	for _, n := range nodes {
		addNode(t, n, map[string]string{label: "yes"})
	}
	ds := newDaemonSet("agent", label, &v1beta1.RollingUpdateDaemonSet{
		Type: v1beta1.StandardRollingUpdateType, Partition: ptr.To[int32](2),
	})
	ds.Spec.ScaleStrategy = &v1beta1.DaemonSetScaleStrategy{PartitionedScaling: true}
	ds = createDS(t, ns, ds)
	waitOnePodPerNode(t, ns, ds, nodes[:1])
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		byNode := podsByNode(t, ns, ds)
		if len(byNode) != 1 || len(byNode[nodes[0]]) != 1 {
			return false, fmt.Sprintf("pods on %d nodes with partition 2 of 3, want only %s", len(byNode), nodes[0])
		}
		return true, ""
	})

	// A fourth node raises desired to 4: with partition 2, two nodes may run the pod,
	// so exactly one more (the first by name of those without one) gets it.
	nodes = append(nodes, "ads-ps-3")
	addNode(t, nodes[3], map[string]string{label: "yes"})
	waitOnePodPerNode(t, ns, ds, nodes[:2])
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		if byNode := podsByNode(t, ns, ds); len(byNode) != 2 || len(byNode[nodes[0]]) != 1 || len(byNode[nodes[1]]) != 1 {
			return false, fmt.Sprintf("pods on %d nodes with partition 2 of 4, want only %v", len(byNode), nodes[:2])
		}
		return true, ""
	})

	updateDS(t, ns, ds.Name, func(ds *v1beta1.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate.Partition = ptr.To[int32](0) })
	waitOnePodPerNode(t, ns, ds, nodes)
	waitStatus(t, ns, ds.Name, time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, 4) })
}
