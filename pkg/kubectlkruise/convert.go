package kubectlkruise

import "k8s.io/apimachinery/pkg/runtime"

// runtimeFromUnstructured converts a JSON-like map into a typed value.
func runtimeFromUnstructured(in map[string]interface{}, out interface{}) error {
	return runtime.DefaultUnstructuredConverter.FromUnstructured(in, out)
}
