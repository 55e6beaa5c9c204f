package resourcedistribution

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		raw, kind, wantErr string
	}{
		{raw: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"b"}}`, kind: KindConfigMap},
		{raw: `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"stringData":{"a":"b"}}`, kind: KindSecret},
		{raw: ``, wantErr: "spec.resource: Required"},
		{raw: `null`, wantErr: "spec.resource: Required"},
		{raw: `[1]`, wantErr: "not a JSON object"},
		{raw: `{"apiVersion":"apps/v1","kind":"Deployment"}`, wantErr: "spec.resource.kind: Unsupported value"},
		{raw: `{"apiVersion":"v1","kind":"Pod"}`, wantErr: "spec.resource.kind: Unsupported value"},
		{raw: `{"apiVersion":"v1","kind":"ConfigMap","spec":{}}`, wantErr: `unknown field "spec"`},
		{raw: `{"apiVersion":"v1","kind":"Secret","data":{"a":"not base64!"}}`, wantErr: "not a valid Secret"},
	}
	for _, tt := range tests {
		res, errs := Decode([]byte(tt.raw), field.NewPath("spec", "resource"))
		if tt.wantErr != "" {
			if len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), tt.wantErr) {
				t.Errorf("%s: errors %v, want %q", tt.raw, errs, tt.wantErr)
			}
			continue
		}
		if len(errs) > 0 || res.Kind() != tt.kind || res.Meta().Name == "" {
			t.Errorf("%s: %v %v", tt.raw, res, errs)
		}
	}
}

func TestHash(t *testing.T) {
	a, b := Hash([]byte(`{"a":1}`)), Hash([]byte(`{"a":2}`))
	if a == b || len(a) != 64 || Hash([]byte(`{"a":1}`)) != a {
		t.Errorf("hashes %s %s", a, b)
	}
}
