package deletionprotection

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const widgetsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.dp.kruise-native.io
  labels:
    policy.kruise.io/delete-protection: Cascading
spec:
  group: dp.kruise-native.io
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1alpha1
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`

// A CRD labelled Cascading cannot be deleted while objects of it exist (the webhook
// lists its storage version with limit=1), and can once they are gone.
func TestCascadingCRDWithObjects(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	if _, err := c.KubectlStdin(t, widgetsCRD, "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		unprotect(t, "crd/widgets.dp.kruise-native.io")
		_, _, _ = c.Kubectl(t, "delete", "--ignore-not-found", "crd", "widgets.dp.kruise-native.io")
	})
	kubectl(t, "wait", "--for=condition=Established", "--timeout=60s", "crd/widgets.dp.kruise-native.io")
	widgets := c.Dynamic.Resource(schema.GroupVersionResource{Group: "dp.kruise-native.io", Version: "v1", Resource: "widgets"}).Namespace(ns)
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, err := widgets.Create(ctx, &unstructured.Unstructured{Object: map[string]interface{}{
			"apiVersion": "dp.kruise-native.io/v1", "kind": "Widget", "metadata": map[string]interface{}{"name": "w1"}}},
			metav1.CreateOptions{})
		return err == nil, err
	})

	waitRefused(t, "delete", "crd", "widgets.dp.kruise-native.io")
	msg := refused(t, "delete", "crd", "widgets.dp.kruise-native.io")
	mustContain(t, msg, `customresourcedefinitions.apiextensions.k8s.io "widgets.dp.kruise-native.io" is forbidden`,
		"forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading: the label forbids deleting it while widgets.dp.kruise-native.io objects exist; delete them first")

	if err := widgets.Delete(ctx, "w1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	kubectl(t, "delete", "crd", "widgets.dp.kruise-native.io")
}
