// Package nodedaemon tests the node daemon on the local control plane: every kwok node
// runs kruise-node-daemon-dev (hack/local-up.sh), kruise-node-daemon's code with a fake
// CRI runtime in process, so image pulls, container recreation and env-from-metadata
// restarts happen as on a real node.
//
// Tests keep apart by node: kwok-node-0 for images (its daemon is restarted),
// kwok-node-1 for ContainerRecreateRequests, kwok-node-2 for env restarts.
package nodedaemon

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
