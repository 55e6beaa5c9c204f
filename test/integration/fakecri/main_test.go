// Package fakecri tests the fake container runtime and its kubelet simulator
// (internal/fakecri) against the local control plane: kwok starts the pods, the
// simulator runs their containers and reports them in pod status, and a CRI client
// sees and acts on them over the runtime's socket, as kruise-node-daemon does.
package fakecri

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
