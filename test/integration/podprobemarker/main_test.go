// Package podprobemarker tests PodProbeMarkers end to end on the local control plane:
// kruise-controller turns them into NodePodProbes, the node daemons
// (kruise-node-daemon-dev: its fake runtime answers ExecSync by the pod's
// fakecri.kruise.io/exec-exit-code annotation) run the probes, and the results come
// back onto the pods as labels, annotations and conditions.
package podprobemarker

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
