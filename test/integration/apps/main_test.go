// Package apps tests what users do with apps.kruise.io through the real
// kube-apiserver and aggregator: kubectl, client-go, server-side apply, watch.
package apps

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
