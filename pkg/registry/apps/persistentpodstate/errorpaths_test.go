package persistentpodstate

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestErrorPaths(t *testing.T) {
	errs := field.ErrorList{
		field.Required(field.NewPath("spec", "requiredPersistentTopology", "nodeTopologyKeys"), ""),
		field.Invalid(field.NewPath("spec", "preferredPersistentTopology").Index(0).Child("preference", "nodeTopologyKeys").Index(1), "x", "bad"),
		field.Required(field.NewPath("spec", "targetRef", "name"), ""),
	}
	want := map[string][]string{
		"v1beta1": {
			"spec.requiredPersistentTopology.keys",
			"spec.preferredPersistentTopology[0].preference.keys[1]",
			"spec.targetRef.name",
		},
		"v1alpha1": {
			"spec.requiredPersistentTopology.nodeTopologyKeys",
			"spec.preferredPersistentTopology[0].preference.nodeTopologyKeys[1]",
			"spec.targetRef.name",
		},
	}
	// v1beta1 first: its renaming must leave the caller's list as it was.
	for _, version := range []string{"v1beta1", "v1alpha1"} {
		got := errorPaths(version, errs)
		if len(got) != len(want[version]) {
			t.Fatalf("%s: %d errors, want %d", version, len(got), len(want[version]))
		}
		for i, e := range got {
			if e.Field != want[version][i] {
				t.Errorf("%s error %d at %s, want %s", version, i, e.Field, want[version][i])
			}
		}
	}
}
