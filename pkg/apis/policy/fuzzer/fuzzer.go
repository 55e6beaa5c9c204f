// Package fuzzer holds the fuzz functions that keep random policy.kruise.io objects
// within what every version can represent, for round-trip tests.
package fuzzer

import (
	runtimeserializer "k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/randfill"

	"github.com/kruise-native/kruise-native/pkg/apis/policy"
)

// Funcs returns the fuzz functions for policy.kruise.io.
var Funcs = func(runtimeserializer.CodecFactory) []interface{} {
	ops := []policy.PubOperation{policy.PubDeleteOperation, policy.PubEvictOperation, policy.PubUpdateOperation}
	return []interface{}{
		func(spec *policy.PodUnavailableBudgetSpec, c randfill.Continue) {
			c.FillNoCustom(spec)
			// v1alpha1 carries the operations as a comma-separated annotation: only
			// names without commas or blanks survive it, as validation demands anyway.
			spec.ProtectOperations = nil
			for range c.Intn(4) {
				spec.ProtectOperations = append(spec.ProtectOperations, ops[c.Intn(len(ops))])
			}
		},
		func(pub *policy.PodUnavailableBudget, c randfill.Continue) {
			c.FillNoCustom(pub)
			// the annotations v1alpha1 uses for v1beta1's fields are not the user's to set
			for _, k := range []string{policy.PubProtectOperationAnnotation, policy.PubProtectTotalReplicasAnnotation,
				policy.PubIgnoredPodSelectorAnnotation} {
				delete(pub.Annotations, k)
			}
		},
	}
}
