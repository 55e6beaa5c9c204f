package cloneset

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestErrorPaths(t *testing.T) {
	errs := field.ErrorList{
		field.Invalid(field.NewPath("spec", "updateStrategy", "maxUnavailable"), "120%", "must not be greater than 100%"),
		field.Invalid(field.NewPath("spec", "updateStrategy", "priorityStrategy", "weightPriority").Index(0).Child("weight"), 0, "bad"),
		field.Invalid(field.NewPath("spec", "updateStrategy", "maxUnavailableX"), 1, "not a prefix match"),
		field.Required(field.NewPath("spec", "selector"), ""),
	}
	got := errorPaths("v1beta1", errs)
	want := []string{
		"spec.updateStrategy.rollingUpdate.maxUnavailable",
		"spec.updateStrategy.rollingUpdate.priorityStrategy.weightPriority[0].weight",
		"spec.updateStrategy.maxUnavailableX",
		"spec.selector",
	}
	for i, w := range want {
		if got[i].Field != w {
			t.Errorf("v1beta1 path %d = %s, want %s", i, got[i].Field, w)
		}
	}
	if errorPaths("v1alpha1", errs)[0].Field != "spec.updateStrategy.maxUnavailable" {
		t.Error("v1alpha1 paths must stay as they are")
	}
	if errs[0].Field != "spec.updateStrategy.maxUnavailable" {
		t.Error("the input list was modified")
	}
}
