package podwebhook

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kruise-native/kruise-native/pkg/deletionprotection"
)

// The deletion webhook, served on its own path, refuses what the shared rule refuses
// (named after the object, with the rule's reason), lets the rest through, and
// answers an error (the failurePolicy applies) when it cannot count the children.
func TestDeletionProtectionWebhook(t *testing.T) {
	var asked []schema.GroupResource
	children := func(_ context.Context, gr schema.GroupResource, obj *unstructured.Unstructured) deletionprotection.ChildrenFunc {
		return func() (deletionprotection.Children, error) {
			asked = append(asked, gr)
			switch obj.GetName() {
			case "busy":
				return deletionprotection.Pods(2, false), nil
			case "broken":
				return deletionprotection.Children{}, errors.New("list failed")
			}
			return deletionprotection.Lookup{}.ChildrenOf(context.Background(), gr, obj)()
		}
	}
	server := mustServer(t, deletionProtectionHandler(children))
	deleting := func(gvr schema.GroupVersionResource, name, protection string, replicas *int64) *admissionv1.AdmissionRequest {
		obj := map[string]interface{}{"metadata": map[string]interface{}{"name": name}}
		if protection != "" {
			obj["metadata"].(map[string]interface{})["labels"] = map[string]interface{}{"policy.kruise.io/delete-protection": protection}
		}
		if replicas != nil {
			obj["spec"] = map[string]interface{}{"replicas": *replicas}
		}
		raw, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		// Name left out, as for an item of a deletecollection.
		return &admissionv1.AdmissionRequest{UID: "uid-1", Operation: admissionv1.Delete,
			Resource: metav1.GroupVersionResource(gvr), OldObject: runtime.RawExtension{Raw: raw}}
	}
	ns := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	deploy := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	svc := schema.GroupVersionResource{Version: "v1", Resource: "services"}
	ing := schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "ingresses"}
	three, zero := int64(3), int64(0)
	cases := []struct {
		name string
		req  *admissionv1.AdmissionRequest
		want string // fragment of the refusal; "" allowed; "error" an HTTP error
	}{
		{"Always deployment", deleting(deploy, "web", "Always", &zero),
			`deployments.apps "web" is forbidden: forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always: the label forbids deleting it`},
		{"Cascading deployment with replicas", deleting(deploy, "web", "Cascading", &three), "while spec.replicas is 3"},
		{"Cascading deployment at zero", deleting(deploy, "web", "Cascading", &zero), ""},
		{"Cascading namespace with pods", deleting(ns, "busy", "Cascading", nil), `namespaces "busy" is forbidden`},
		{"unlabelled namespace", deleting(ns, "busy", "", nil), ""},
		{"Always service", deleting(svc, "web", "Always", nil), `services "web" is forbidden`},
		{"Always ingress", deleting(ing, "web", "Always", nil), `ingresses.networking.k8s.io "web" is forbidden`},
		{"Cascading service has no children", deleting(svc, "web", "Cascading", nil), ""},
		{"children unknown", deleting(ns, "broken", "Cascading", nil), "error"},
		{"pod delete is not this webhook's", deleting(podsGVR, "p", "Always", nil), ""},
		{"already being deleted", func() *admissionv1.AdmissionRequest {
			r := deleting(deploy, "web", "Always", &zero)
			r.OldObject.Raw = []byte(strings.Replace(string(r.OldObject.Raw), `"name":"web"`,
				`"name":"web","deletionTimestamp":"2026-01-01T00:00:00Z"`, 1))
			return r
		}(), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, body := post(t, server, ValidateDeletionPath, tc.req)
			if tc.want == "error" {
				if code != http.StatusInternalServerError {
					t.Fatalf("HTTP %d %s, want 500", code, body)
				}
				return
			}
			if code != http.StatusOK {
				t.Fatalf("HTTP %d: %s", code, body)
			}
			resp := decodeResponse(t, body)
			if tc.want == "" {
				if !resp.Allowed {
					t.Fatalf("refused: %+v", resp.Result)
				}
				return
			}
			if resp.Allowed || resp.Result.Code != http.StatusForbidden || !strings.Contains(resp.Result.Message, tc.want) {
				t.Fatalf("response %+v, want 403 containing %q", resp.Result, tc.want)
			}
		})
	}
	if _, ok := server.Paths()[ValidatePath]; ok {
		t.Error("the deletion handler alone serves the pod validation path")
	}
}
