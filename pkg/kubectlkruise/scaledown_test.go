package kubectlkruise

import (
	"bytes"
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

func scaleDownFixture(t *testing.T) (*Clients, *target) {
	obj := workload("v1beta1", "CloneSet", map[string]interface{}{
		"replicas":      int64(4),
		"scaleStrategy": map[string]interface{}{"podsToDelete": []interface{}{"w-old"}},
	}, nil)
	return &Clients{Dynamic: newDynamic(obj.DeepCopy())}, targetOf(t, obj, "clonesets")
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

// Whether a pod is the CloneSet's is the server's rule: the plugin sends the patch and
// its refusal (the admission plugin's 422, with the field at fault) is the error.
func TestScaleDownReportsTheServersRefusal(t *testing.T) {
	c, tg := scaleDownFixture(t)
	refusal := apierrors.NewInvalid(schema.GroupKind{Group: Group, Kind: "CloneSet"}, "w", field.ErrorList{
		field.Invalid(field.NewPath("spec", "scaleStrategy", "podsToDelete").Index(1), "nope", "no such pod in the CloneSet's namespace")})
	c.Dynamic.(*dynamicfake.FakeDynamicClient).PrependReactor("patch", "clonesets", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, refusal
	})
	err := scaleDown(context.Background(), c, tg, []string{"nope"}, cmdutil.DryRunNone, namePrinter(t, "scaled down"), &bytes.Buffer{})
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), `spec.scaleStrategy.podsToDelete[1]: Invalid value: "nope"`) {
		t.Fatalf("err = %v, want the server's 422", err)
	}
}

func TestScaleDownOnlyForCloneSets(t *testing.T) {
	c, _ := scaleDownFixture(t)
	tg := targetOf(t, workload("v1beta1", "StatefulSet", map[string]interface{}{}, nil), "statefulsets")
	if err := scaleDown(context.Background(), c, tg, []string{"w-a"}, cmdutil.DryRunNone, namePrinter(t, ""), &bytes.Buffer{}); err == nil {
		t.Fatal("scaledown of a statefulset succeeded")
	}
}

// A client dry run is sent as a server dry run: only the server judges the pods, and
// nothing is written.
func TestScaleDownClientDryRunAsksTheServer(t *testing.T) {
	c, tg := scaleDownFixture(t)
	fake := c.Dynamic.(*dynamicfake.FakeDynamicClient)
	if err := scaleDown(context.Background(), c, tg, []string{"w-a"}, cmdutil.DryRunClient, namePrinter(t, "scaled down"), &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var patches int
	for _, a := range fake.Actions() {
		if p, ok := a.(clienttesting.PatchActionImpl); ok {
			patches++
			if dr := p.PatchOptions.DryRun; len(dr) != 1 || dr[0] != metav1.DryRunAll {
				t.Errorf("patch sent with dryRun %v, want [All]", dr)
			}
		}
	}
	if patches != 1 {
		t.Fatalf("%d patches sent, want 1 (a server dry run)", patches)
	}
}
