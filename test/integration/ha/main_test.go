// Package ha tests the HA topology of the local stack (make up HA=1): a 3-member etcd
// cluster, two kruise-apiserver replicas on it behind HAProxy, and two kruise-controller
// replicas electing a leader.
package ha

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) { framework.MainHA(m) }
