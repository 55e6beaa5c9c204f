package inplaceupdate

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
)

// TestPatchBytesApplies checks that podpatch.Bytes of a Prepare'd pod, applied by strategic
// merge to the old pod, yields the prepared pod's labels, annotations and images.
func TestPatchBytesApplies(t *testing.T) {
	oldTmpl, newTmpl := sidecarAndMain()
	old := runningPod(oldTmpl)
	old.Labels["gone"] = "x"
	spec := CalculateSpec(oldTmpl, newTmpl, "rev-2")
	spec.MetaDataPatch.RemoveLabels = []string{"gone"}
	prepared, err := Prepare(old, spec, "", t0)
	if err != nil {
		t.Fatal(err)
	}
	patch, err := podpatch.Bytes(old, prepared)
	if err != nil {
		t.Fatal(err)
	}
	oldJSON, _ := json.Marshal(old)
	merged, err := strategicpatch.StrategicMergePatch(oldJSON, patch, &corev1.Pod{})
	if err != nil {
		t.Fatal(err)
	}
	var got corev1.Pod
	if err := json.Unmarshal(merged, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(prepared, &got); diff != "" {
		t.Errorf("patched pod differs from the prepared one (-prepared +patched):\n%s", diff)
	}
}
