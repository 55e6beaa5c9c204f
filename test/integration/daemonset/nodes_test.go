package daemonset

import (
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A node that appears gets a pod; a node that loses the node selector's label loses
// its pod; a node that goes takes its pod with it.
func TestNodesComeAndGo(t *testing.T) {
	ns := framework.Get(t).CreateNamespace(t)
	const label = "ads-nodes"
	addNode(t, "ads-a", map[string]string{label: "yes"})
	ds := createDS(t, ns, newDaemonSet("agent", label, nil))
	waitOnePodPerNode(t, ns, ds, []string{"ads-a"})
	waitStatus(t, ns, ds.Name, time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, 1) })

	addNode(t, "ads-b", map[string]string{label: "yes"})
	waitOnePodPerNode(t, ns, ds, []string{"ads-a", "ads-b"})
	waitStatus(t, ns, ds.Name, time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, 2) })

	labelNode(t, "ads-b", label, "")
	waitOnePodPerNode(t, ns, ds, []string{"ads-a"})
	waitStatus(t, ns, ds.Name, time.Minute, func(s v1beta1.DaemonSetStatus) bool { return settled(s, 1) })

	deleteNode(t, "ads-a")
	waitOnePodPerNode(t, ns, ds, nil)
	waitStatus(t, ns, ds.Name, time.Minute, func(s v1beta1.DaemonSetStatus) bool {
		return s.DesiredNumberScheduled == 0 && s.CurrentNumberScheduled == 0
	})
}
