package deletionprotection

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/tools/record"
	"k8s.io/component-base/metrics/testutil"

	rule "github.com/kruise-native/kruise-native/pkg/deletionprotection"
)

func deployment(protection string, replicas int64) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"spec": map[string]interface{}{"replicas": replicas},
	}}
	u.SetName("web")
	u.SetNamespace("ns")
	u.SetUID("uid-1")
	if protection != "" {
		u.SetLabels(map[string]string{"policy.kruise.io/delete-protection": protection})
	}
	return u
}

// An object that leaves the labelled watch is counted when it is gone and the rule
// forbade deleting it; not when it is still there without its label (the watch's
// DELETED event for an object that stopped matching the selector), nor when the rule
// allowed the deletion.
func TestAuditGone(t *testing.T) {
	gvr := rule.DeploymentsResource.WithVersion("v1")
	cases := []struct {
		name    string
		last    *unstructured.Unstructured
		current *unstructured.Unstructured // in the API now; nil = gone
		counted bool
		event   string
	}{
		{"Always, deleted", deployment("Always", 0), nil, true, "delete-protection=Always: the label forbids deleting it"},
		{"Cascading with replicas, deleted", deployment("Cascading", 2), nil, true, "while spec.replicas is 2"},
		{"Cascading at zero, deleted", deployment("Cascading", 0), nil, false, ""},
		{"label removed, still there", deployment("Always", 1), deployment("", 1), false, ""},
	}
	for _, tc := range cases {
		for _, rv := range []string{"", "5"} {
			t.Run(tc.name+"/resourceVersion "+rv, func(t *testing.T) {
				// With the event's revision the object is read at it (the fake serves the
				// present for any revision); without, what is there now decides.
				last := tc.last.DeepCopy()
				last.SetResourceVersion(rv)
				scheme := runtime.NewScheme()
				var objects []runtime.Object
				if tc.current != nil {
					objects = append(objects, tc.current)
				}
				client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(scheme,
					map[schema.GroupVersionResource]string{gvr: "DeploymentList"}, objects...)
				recorder := record.NewFakeRecorder(10)
				c := &Controller{dynamic: client, recorder: recorder}
				before, _ := testutil.GetCounterMetricValue(unguardedDeletes.WithLabelValues("Deployment"))
				c.auditGone(context.Background(), gvr, "Deployment", last, false)
				after, _ := testutil.GetCounterMetricValue(unguardedDeletes.WithLabelValues("Deployment"))
				if counted := after == before+1; counted != tc.counted || after > before+1 {
					t.Errorf("counter went from %v to %v, want counted=%v", before, after, tc.counted)
				}
				select {
				case e := <-recorder.Events:
					if tc.event == "" || !strings.Contains(e, "UnguardedDeletion") || !strings.Contains(e, tc.event) {
						t.Errorf("event %q, want one containing %q", e, tc.event)
					}
				default:
					if tc.event != "" {
						t.Errorf("no event, want one containing %q", tc.event)
					}
				}
			})
		}
	}
}
