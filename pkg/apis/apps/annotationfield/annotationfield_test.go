package annotationfield

import (
	"reflect"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestSetLeavesTheInputAlone(t *testing.T) {
	in := map[string]string{"a": "1"}
	out := Set(in, "k", "v")
	if !reflect.DeepEqual(in, map[string]string{"a": "1"}) || !reflect.DeepEqual(out, map[string]string{"a": "1", "k": "v"}) {
		t.Errorf("in %v out %v", in, out)
	}
	if got := Set(nil, "k", "v"); !reflect.DeepEqual(got, map[string]string{"k": "v"}) {
		t.Errorf("Set(nil) = %v", got)
	}
}

func TestWithout(t *testing.T) {
	in := map[string]string{"a": "1", "k": "v"}
	if got := Without(in, "k"); !reflect.DeepEqual(got, map[string]string{"a": "1"}) || len(in) != 2 {
		t.Errorf("Without = %v, input now %v", got, in)
	}
	if got := Without(map[string]string{"k": "v"}, "k"); got != nil {
		t.Errorf("Without of the only key = %v, want nil", got)
	}
}

func TestJSONRoundTripAndRefusal(t *testing.T) {
	ann, err := SetJSON(nil, "k", []string{"10.0.0.1", ""})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if ok, err := GetJSON(ann, "k", schema.GroupKind{Kind: "X"}, "x", &got); !ok || err != nil || !reflect.DeepEqual(got, []string{"10.0.0.1", ""}) {
		t.Fatalf("GetJSON = %v %v %v", ok, err, got)
	}
	if ok, err := GetJSON(nil, "k", schema.GroupKind{Kind: "X"}, "x", &got); ok || err != nil {
		t.Errorf("absent: %v %v", ok, err)
	}
	_, err = GetJSON(map[string]string{"k": "{"}, "k", schema.GroupKind{Group: "apps.kruise.io", Kind: "X"}, "x", &got)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "metadata.annotations[k]") {
		t.Errorf("bad JSON: %v, want 422 naming the annotation", err)
	}
}
