// Package statefulset tests the Advanced StatefulSet controller on the local control
// plane: the documented manifests behave as their comments say, a native manifest
// behaves as kube's own controller, and a controller restart mid-rollout loses nothing.
package statefulset

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
