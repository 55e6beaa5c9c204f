package kubectlkruise

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/printers"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/kubectl/pkg/scheme"

	"github.com/kruise-native/kruise-native/pkg/revisiondata"
)

const testNS = "ns"

func gvr(version, resource string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: Group, Version: version, Resource: resource}
}

var listKinds = map[schema.GroupVersionResource]string{
	gvr("v1alpha1", "clonesets"):    "CloneSetList",
	gvr("v1beta1", "clonesets"):     "CloneSetList",
	gvr("v1beta1", "statefulsets"):  "StatefulSetList",
	gvr("v1alpha1", "daemonsets"):   "DaemonSetList",
	gvr("v1beta1", "daemonsets"):    "DaemonSetList",
	gvr("v1alpha1", "statefulsets"): "StatefulSetList",
}

// workload builds an unstructured workload named "w" with the given spec and status.
func workload(version, kind string, spec, status map[string]interface{}) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": Group + "/" + version,
		"kind":       kind,
		"metadata": map[string]interface{}{
			"name": "w", "namespace": testNS, "uid": "uid-w", "generation": int64(2), "resourceVersion": "7",
		},
		"spec":   spec,
		"status": status,
	}}
	if _, ok := spec["selector"]; !ok {
		spec["selector"] = map[string]interface{}{"matchLabels": map[string]interface{}{"app": "w"}}
	}
	return u
}

// targetOf wraps an object as the resource builder would have resolved it.
func targetOf(t *testing.T, obj *unstructured.Unstructured, resource string) *target {
	t.Helper()
	k, err := kindFor(gvr(WorkloadVersion, resource).GroupResource(), "test")
	if err != nil {
		t.Fatal(err)
	}
	return &target{GVR: k.resource, Object: obj, kind: k}
}

func newDynamic(objs ...runtime.Object) *dynamicfake.FakeDynamicClient {
	return dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), listKinds, objs...)
}

// revision is a ControllerRevision of the workload "w" storing a template with image.
func revision(t *testing.T, n int64, image, ownerUID string) *appsv1.ControllerRevision {
	t.Helper()
	data, err := revisiondata.Encode(&corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "w"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: image}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Name: "w-" + image, Namespace: testNS, Labels: map[string]string{"app": "w"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: Group + "/v1beta1", Kind: "CloneSet", Name: "w", UID: types.UID(ownerUID), Controller: ptrTrue()}},
		},
		Revision: n,
		Data:     runtime.RawExtension{Raw: data},
	}
}

func ptrTrue() *bool { b := true; return &b }

// namePrinter prints as kubectl does without -o: "<kind>.<group>/<name> <operation>".
func namePrinter(t *testing.T, operation string) printers.ResourcePrinter {
	t.Helper()
	p, err := genericclioptions.NewPrintFlags(operation).WithTypeSetter(scheme.Scheme).ToPrinter()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func metav1UpdateOptions() metav1.UpdateOptions { return metav1.UpdateOptions{} }

func newYAMLFlags() *genericclioptions.PrintFlags {
	f := genericclioptions.NewPrintFlags("rolled back").WithTypeSetter(scheme.Scheme)
	out := "yaml"
	f.OutputFormat = &out
	return f
}

func metav1GetOptions() metav1.GetOptions { return metav1.GetOptions{} }

func nestedString(obj *unstructured.Unstructured, path ...string) (string, bool, error) {
	return unstructured.NestedString(obj.Object, path...)
}

func namePrintFlags(operation string) *genericclioptions.PrintFlags {
	return genericclioptions.NewPrintFlags(operation).WithTypeSetter(scheme.Scheme)
}
