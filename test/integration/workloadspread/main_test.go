// Package workloadspread tests WorkloadSpread (workloadspreads.apps.kruise.io) on the
// local stack: kruise-apiserver serves the kind and places new pods of the target in
// its subsets through the pod webhook, kruise-controller counts the subsets and sets
// pod deletion costs, and the CloneSet controller's scale-down follows them. The kwok
// nodes carry topology.kubernetes.io/zone a, b and c.
package workloadspread

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
