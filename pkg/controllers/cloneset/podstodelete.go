package cloneset

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
)

// syncPodsToDelete removes from spec.scaleStrategy.podsToDelete the names of pods that
// are gone, as OpenKruise does, so the list only names pods still to delete.
func (c *Controller) syncPodsToDelete(ctx context.Context, st *syncState) error {
	names := st.cs.Spec.ScaleStrategy.PodsToDelete
	if len(names) == 0 {
		return nil
	}
	present := sets.New[string]()
	for _, p := range st.claimed {
		present.Insert(p.Name)
	}
	keep := make([]string, 0, len(names))
	for _, n := range names {
		if present.Has(n) {
			keep = append(keep, n)
		}
	}
	if len(keep) == len(names) {
		return nil
	}
	// A merge patch guarded by the resourceVersion: never drop a name added meanwhile.
	patch, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": st.cs.ResourceVersion},
		"spec":     map[string]any{"scaleStrategy": map[string]any{"podsToDelete": keep}},
	})
	if err != nil {
		return err
	}
	_, err = c.kruiseClient.AppsV1beta1().CloneSets(st.cs.Namespace).Patch(ctx, st.cs.Name, types.MergePatchType, patch,
		metav1.PatchOptions{FieldManager: ControllerName})
	if err != nil {
		return fmt.Errorf("trimming podsToDelete: %w", err)
	}
	return nil
}
