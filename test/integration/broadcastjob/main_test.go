// Package broadcastjob tests the BroadcastJob controller on the local control plane:
// the documented manifest runs one pod on every node, completes and is deleted after
// its TTL. kwok completes the pods (hack/local/kwok/pod-complete.yaml).
package broadcastjob

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
