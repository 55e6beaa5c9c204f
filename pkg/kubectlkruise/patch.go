package kubectlkruise

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
)

// fieldManager is the manager name the plugin's writes are recorded under, as kubectl
// records "kubectl-rollout".
const fieldManager = "kubectl-kruise"

// mergePatch sends a JSON merge patch (the Kruise kinds are served by our own server,
// where a merge patch means the same thing in every version).
func mergePatch(ctx context.Context, dyn dynamic.Interface, t *target, patch map[string]interface{}, dryRun bool) (*unstructured.Unstructured, error) {
	data, err := json.Marshal(patch)
	if err != nil {
		return nil, fmt.Errorf("encoding patch for %s: %w", t.ref(), err)
	}
	opts := metav1.PatchOptions{FieldManager: fieldManager}
	if dryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	obj, err := dyn.Resource(t.GVR).Namespace(t.namespace()).Patch(ctx, t.name(), types.MergePatchType, data, opts)
	if err != nil {
		return nil, fmt.Errorf("failed to patch %s: %w", t.ref(), err)
	}
	return obj, nil
}
