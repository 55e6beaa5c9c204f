// Package kubectlkruise runs the real kubectl (v1.36 from hack/tools) with the
// kubectl-kruise plugin on PATH against the local stack.
package kubectlkruise

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
