package kubectlkruise

import (
	"bytes"
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

func pod(name, owner string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Name: name, Namespace: testNS, Labels: map[string]string{"app": "w"},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: Group + "/v1beta1", Kind: "CloneSet", Name: "w", UID: types.UID(owner), Controller: ptrTrue()}},
	}}
}

func scaleDownFixture(t *testing.T) (*Clients, *target) {
	obj := workload("v1beta1", "CloneSet", map[string]interface{}{
		"replicas":      int64(4),
		"scaleStrategy": map[string]interface{}{"podsToDelete": []interface{}{"w-old"}},
	}, nil)
	kube := kubefake.NewClientset(pod("w-a", "uid-w"), pod("w-b", "uid-w"), pod("w-c", "uid-w"), pod("w-old", "uid-w"), pod("other", "uid-other"))
	return &Clients{Dynamic: newDynamic(obj.DeepCopy()), Kube: kube}, targetOf(t, obj, "clonesets")
}

func TestScaleDownListsPodsAndLowersReplicasInOnePatch(t *testing.T) {
	c, tg := scaleDownFixture(t)
	var out bytes.Buffer
	// w-old is already listed: it must not lower replicas a second time.
	if err := scaleDown(context.Background(), c, tg, []string{"w-a", "w-c", "w-old"}, cmdutil.DryRunNone, namePrinter(t, "scaled down"), &out); err != nil {
		t.Fatal(err)
	}
	stored, err := c.Dynamic.Resource(tg.GVR).Namespace(testNS).Get(context.Background(), "w", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	replicas, _, _ := unstructured.NestedInt64(stored.Object, "spec", "replicas")
	toDelete, _, _ := unstructured.NestedStringSlice(stored.Object, "spec", "scaleStrategy", "podsToDelete")
	if replicas != 2 || strings.Join(toDelete, ",") != "w-old,w-a,w-c" {
		t.Errorf("replicas %d podsToDelete %v, want 2 [w-old w-a w-c]", replicas, toDelete)
	}
	if out.String() != "cloneset.apps.kruise.io/w scaled down\n" {
		t.Errorf("output %q", out.String())
	}
}

func TestScaleDownRefusesUnknownPodsWritingNothing(t *testing.T) {
	c, tg := scaleDownFixture(t)
	var out bytes.Buffer
	err := scaleDown(context.Background(), c, tg, []string{"w-a", "other", "nope"}, cmdutil.DryRunNone, namePrinter(t, "scaled down"), &out)
	if err == nil || !strings.Contains(err.Error(), "nope, other") {
		t.Fatalf("err = %v, want the unknown pods named", err)
	}
	for _, a := range c.Dynamic.(*dynamicfake.FakeDynamicClient).Actions() {
		t.Errorf("unexpected write: %v", a)
	}
}

func TestScaleDownOnlyForCloneSets(t *testing.T) {
	c, _ := scaleDownFixture(t)
	tg := targetOf(t, workload("v1beta1", "StatefulSet", map[string]interface{}{}, nil), "statefulsets")
	if err := scaleDown(context.Background(), c, tg, []string{"w-a"}, cmdutil.DryRunNone, namePrinter(t, ""), &bytes.Buffer{}); err == nil {
		t.Fatal("scaledown of a statefulset succeeded")
	}
}
