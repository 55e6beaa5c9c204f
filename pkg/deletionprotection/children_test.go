package deletionprotection

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"
	metadatafake "k8s.io/client-go/metadata/fake"
)

func crd(versions ...interface{}) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"metadata": map[string]interface{}{"name": "widgets.example.com"},
		"spec": map[string]interface{}{"group": "example.com", "names": map[string]interface{}{"plural": "widgets"},
			"versions": versions},
	}}
}

func version(name string, served, storage bool) interface{} {
	return map[string]interface{}{"name": name, "served": served, "storage": storage}
}

func TestCRDStorageResource(t *testing.T) {
	cases := []struct {
		name string
		crd  *unstructured.Unstructured
		want string // version; "" = error
	}{
		{"storage version served", crd(version("v1", true, false), version("v2", true, true)), "v2"},
		{"storage version not served", crd(version("v1", false, true), version("v2", true, false)), "v2"},
		{"nothing served", crd(version("v1", false, true)), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gvr, err := CRDStorageResource(tc.crd)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("got %v, want an error", gvr)
				}
				return
			}
			if err != nil || gvr != (schema.GroupVersionResource{Group: "example.com", Version: tc.want, Resource: "widgets"}) {
				t.Fatalf("got %v, %v; want version %s", gvr, err, tc.want)
			}
		})
	}
}

func TestLookupChildrenOf(t *testing.T) {
	ctx := context.Background()
	pod := func(name string, phase corev1.PodPhase) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "busy"}, Status: corev1.PodStatus{Phase: phase}}
	}
	widget := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "example.com/v2", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "busy"}}
	scheme := runtime.NewScheme()
	_ = metav1.AddMetaToScheme(scheme)
	l := Lookup{
		NamespacePods: ListPods(kubefake.NewSimpleClientset(pod("run", corev1.PodRunning), pod("done", corev1.PodSucceeded),
			&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "only-done", Namespace: "finished"}, Status: corev1.PodStatus{Phase: corev1.PodSucceeded}})),
		Metadata: metadatafake.NewSimpleMetadataClient(scheme, widget),
	}
	named := func(name string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]interface{}{}}
		u.SetName(name)
		return u
	}
	deploy := func(replicas interface{}) *unstructured.Unstructured {
		u := named("web")
		if replicas != nil {
			u.Object["spec"] = map[string]interface{}{"replicas": replicas}
		}
		return u
	}
	emptyCRD := crd(version("v1", true, true))
	emptyCRD.Object["spec"].(map[string]interface{})["names"] = map[string]interface{}{"plural": "gadgets"}
	cases := []struct {
		name string
		gr   schema.GroupResource
		obj  *unstructured.Unstructured
		want int64
	}{
		{"namespace with a running pod", NamespacesResource, named("busy"), 1},
		{"namespace with finished pods only", NamespacesResource, named("finished"), 0},
		{"empty namespace", NamespacesResource, named("empty"), 0},
		{"CRD with objects", CRDsResource, crd(version("v2", true, true)), 1},
		{"CRD without objects", CRDsResource, emptyCRD, 0},
		{"Deployment with replicas", DeploymentsResource, deploy(int64(3)), 3},
		{"StatefulSet at zero", StatefulSetsResource, deploy(int64(0)), 0},
		{"ReplicaSet without replicas (1 by default)", ReplicaSetsResource, deploy(nil), 1},
		{"unknown resource", schema.GroupResource{Resource: "configmaps"}, named("x"), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := l.ChildrenOf(ctx, tc.gr, tc.obj)()
			if err != nil || c.Count != tc.want {
				t.Fatalf("got %+v, %v; want %d children", c, err, tc.want)
			}
		})
	}
}
