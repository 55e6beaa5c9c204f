package options

import (
	"k8s.io/component-base/featuregate"

	"github.com/kruise-native/kruise-native/pkg/features"
	"github.com/kruise-native/kruise-native/pkg/podbudget"
)

// unguardedOperations are the pod disruptions the PodUnavailableBudget guard lets
// through because their feature gate is off.
func unguardedOperations(g featuregate.FeatureGate) []podbudget.Operation {
	var ops []podbudget.Operation
	if !g.Enabled(features.PodUnavailableBudgetDeleteGate) {
		ops = append(ops, podbudget.Delete, podbudget.Evict)
	}
	if !g.Enabled(features.PodUnavailableBudgetUpdateGate) {
		ops = append(ops, podbudget.Update)
	}
	return ops
}
