// Package sidecarset tests SidecarSets on the local control plane: the documented
// manifests as users apply them, and the cluster-wide conflict rule.
package sidecarset

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
