// Package pub tests PodUnavailableBudget (podunavailablebudgets.policy.kruise.io) on
// the local stack: kruise-apiserver serves the kind and guards pod deletions,
// evictions and in-place updates through its pod webhook, kruise-controller counts
// the budget, and the CloneSet controller's in-place rollout waits for it.
package pub

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
