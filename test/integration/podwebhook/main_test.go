// Package podwebhook tests the Pod webhook's server with the real kube-apiserver: a
// chain of test handlers, served by the same server type kruise-apiserver uses and
// registered with the configurations generated from the chain, is called by
// kube-apiserver as the configurations say (mutate, then validate; pod DELETE).
package podwebhook

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
