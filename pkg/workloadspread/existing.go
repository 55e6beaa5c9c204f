package workloadspread

import (
	"encoding/json"
	"fmt"
	"strings"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// IgnorePatchExistingPodsAnnotation on a WorkloadSpread, "true", keeps its subsets'
// patches off the pods that existed before it (OpenKruise's key): they are only marked
// with the subset they are counted in.
const IgnorePatchExistingPodsAnnotation = "workloadspread.kruise.io/ignore-patch-existing-pods-metadata"

// ExistingPodPatch is the strategic-merge patch for a pod created before ws and counted
// in subset (its node matches): OpenKruise's annotation naming the subset, and the
// labels and annotations of the subset's patch unless ws opts out. Only metadata: a
// running pod's spec cannot take the rest of the patch.
func ExistingPodPatch(ws *appsv1beta1.WorkloadSpread, subset *appsv1beta1.WorkloadSpreadSubset) ([]byte, error) {
	meta := map[string]any{}
	if len(subset.Patch.Raw) > 0 && !strings.EqualFold(ws.Annotations[IgnorePatchExistingPodsAnnotation], "true") {
		var patch struct {
			Metadata struct {
				Labels      map[string]string `json:"labels,omitempty"`
				Annotations map[string]string `json:"annotations,omitempty"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(subset.Patch.Raw, &patch); err != nil {
			return nil, fmt.Errorf("subset %s's patch: %w", subset.Name, err)
		}
		if len(patch.Metadata.Labels) > 0 {
			meta["labels"] = patch.Metadata.Labels
		}
		annotations := map[string]string{}
		for k, v := range patch.Metadata.Annotations {
			annotations[k] = v
		}
		meta["annotations"] = annotations
	}
	annotations, _ := meta["annotations"].(map[string]string)
	if annotations == nil {
		annotations = map[string]string{}
		meta["annotations"] = annotations
	}
	annotations[Annotation] = Placement{Name: ws.Name, Subset: subset.Name}.String()
	return json.Marshal(map[string]any{"metadata": meta})
}
