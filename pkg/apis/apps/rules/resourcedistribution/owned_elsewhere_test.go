package resourcedistribution

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The refusal rule, one row per resource: the field named, or none when it may be
// distributed.
func TestOwnedElsewhere(t *testing.T) {
	tests := []struct {
		name, raw, field string
	}{
		{"a ServiceAccount token Secret", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"t","annotations":{"kubernetes.io/service-account.name":"default"}},"type":"kubernetes.io/service-account-token"}`, "spec.resource.type"},
		{"a bootstrap token Secret", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"bootstrap-token-abcdef"},"type":"bootstrap.kubernetes.io/token"}`, "spec.resource.type"},
		{"the root CA ConfigMap", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"kube-root-ca.crt"},"data":{"ca.crt":"x"}}`, "spec.resource.metadata.name"},
		{"an Opaque Secret", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"type":"Opaque","stringData":{"a":"b"}}`, ""},
		{"a Secret without a type (Opaque)", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}}`, ""},
		{"a pull Secret", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"pull"},"type":"kubernetes.io/dockerconfigjson","data":{".dockerconfigjson":"e30="}}`, ""},
		{"a TLS Secret", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"tls"},"type":"kubernetes.io/tls"}`, ""},
		{"an Opaque Secret that names a ServiceAccount (no controller reads it)", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","annotations":{"kubernetes.io/service-account.name":"default"}}}`, ""},
		{"a Secret named kube-root-ca.crt (the publisher writes ConfigMaps only)", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"kube-root-ca.crt"}}`, ""},
		{"another ConfigMap", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"game-demo"}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fld := field.NewPath("spec", "resource")
			res, errs := Decode([]byte(tt.raw), fld)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			errs = OwnedElsewhere(res, fld)
			switch {
			case tt.field == "" && len(errs) > 0:
				t.Errorf("refused: %v", errs)
			case tt.field != "" && (len(errs) != 1 || errs[0].Field != tt.field || errs[0].Type != field.ErrorTypeForbidden):
				t.Errorf("errors %v, want one Forbidden at %s", errs, tt.field)
			}
		})
	}
}
