// Package cloneset tests the CloneSet controller on the local control plane: the
// documented manifests behave as their comments say.
package cloneset

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
