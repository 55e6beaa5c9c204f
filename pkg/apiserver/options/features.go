package options

import (
	"fmt"

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

// validateGates refuses the gate states kruise-apiserver cannot honour (pkg/features),
// and --pod-webhook-readiness-gate with KruisePodReadinessGate off: the flag would give
// pods the readiness gate the feature gate turns off.
func validateGates(g featuregate.FeatureGate, podWebhookReadinessGate bool) []error {
	var errs []error
	if err := features.Validate(g); err != nil {
		errs = append(errs, fmt.Errorf("--feature-gates: %w", err))
	}
	if podWebhookReadinessGate && !g.Enabled(features.KruisePodReadinessGate) {
		errs = append(errs, fmt.Errorf("--pod-webhook-readiness-gate gives pods the KruisePodReady readiness gate, "+
			"which --feature-gates=%s=false turns off: drop one of them", features.KruisePodReadinessGate))
	}
	return errs
}
