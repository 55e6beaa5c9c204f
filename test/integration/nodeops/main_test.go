// Package nodeops tests image pre-pulling and container recreation on the local
// control plane, from the API down to the node daemons: NodeImages per node,
// ImagePullJobs and ContainerRecreateRequests as users write them.
package nodeops

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
