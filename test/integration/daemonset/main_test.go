// Package daemonset tests the Advanced DaemonSet controller on the local control plane,
// adding and removing kwok nodes: the documented manifest behaves as its comments say,
// nodes that come, change or go gain and lose pods, and rollouts (in place, partition,
// pause) do what they promise.
package daemonset

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
