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
	want := []string{
		"spec.requiredPersistentTopology.keys",
		"spec.preferredPersistentTopology[0].preference.keys[1]",
		"spec.targetRef.name",
	}
	for i, e := range errorPaths("v1beta1", errs) {
		if e.Field != want[i] {
			t.Errorf("v1beta1 error %d at %s, want %s", i, e.Field, want[i])
		}
	}
	for i, e := range errorPaths("v1alpha1", errs) {
		if e.Field != errs[i].Field {
			t.Errorf("v1alpha1 error %d renamed to %s", i, e.Field)
		}
	}
}
