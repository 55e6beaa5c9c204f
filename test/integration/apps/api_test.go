package apps

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

var cloneSetsV1alpha1 = schema.GroupVersionResource{Group: "apps.kruise.io", Version: "v1alpha1", Resource: "clonesets"}

func newCloneSet(name string) *v1alpha1.CloneSet {
	labels := map[string]string{"app": name}
	return &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:alpine"}}},
			},
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{Type: v1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType},
		},
	}
}

// An object written as v1alpha1 reads back as v1beta1 and, written back as v1beta1,
// reads as v1alpha1 exactly as first stored.
func TestVersionsRoundTrip(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	client := kruiseClient(t)

	created, err := client.AppsV1alpha1().CloneSets(ns).Create(ctx, newCloneSet("rt"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	beta, err := client.AppsV1beta1().CloneSets(ns).Get(ctx, "rt", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ru := beta.Spec.UpdateStrategy.RollingUpdate
	if beta.Spec.UpdateStrategy.Type != v1beta1.RollingUpdateCloneSetUpdateStrategyType || ru == nil ||
		ru.PodUpdatePolicy != v1beta1.InPlaceIfPossibleCloneSetPodUpdateStrategyType || ru.MaxUnavailable.String() != "20%" {
		t.Fatalf("v1beta1 view of updateStrategy = %+v, want RollingUpdate/InPlaceIfPossible/20%%", beta.Spec.UpdateStrategy)
	}
	if !beta.Spec.ScaleStrategy.EnablePVCReuse {
		t.Fatalf("v1beta1 enablePVCReuse = false for a v1alpha1 object with disablePVCReuse unset")
	}
	// Write it back as v1beta1 (re-reading on conflict: the controller writes status).
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest, err := client.AppsV1beta1().CloneSets(ns).Get(ctx, "rt", metav1.GetOptions{})
		if err != nil {
			return err
		}
		_, err = client.AppsV1beta1().CloneSets(ns).Update(ctx, latest, metav1.UpdateOptions{})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	again, err := client.AppsV1alpha1().CloneSets(ns).Get(ctx, "rt", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(created.Spec, again.Spec); diff != "" {
		t.Fatalf("v1alpha1 spec changed after a v1beta1 round trip (-before +after):\n%s", diff)
	}
	if again.Generation != created.Generation {
		t.Fatalf("a no-op update through v1beta1 bumped the generation %d -> %d", created.Generation, again.Generation)
	}
}

// A client that accepts protobuf gets protobuf, through the aggregator.
func TestProtobuf(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	pb := kruiseclient.NewForConfigOrDie(protobufConfig(t))
	if _, err := pb.AppsV1alpha1().CloneSets(ns).Create(ctx, newCloneSet("pb"), metav1.CreateOptions{}); err != nil {
		t.Fatalf("create with protobuf: %v", err)
	}
	list, err := pb.AppsV1beta1().CloneSets(ns).List(ctx, metav1.ListOptions{})
	if err != nil || len(list.Items) != 1 {
		t.Fatalf("list with protobuf: %v items, err %v", len(list.Items), err)
	}

	var contentType string
	res := pb.AppsV1beta1().RESTClient().Get().Namespace(ns).Resource("clonesets").Name("pb").Do(ctx)
	res.ContentType(&contentType)
	if err := res.Error(); err != nil {
		t.Fatal(err)
	}
	if contentType != "application/vnd.kubernetes.protobuf" {
		t.Fatalf("response content type = %q, want protobuf", contentType)
	}
}

// Two managers applying different replicas conflict; --force-conflicts takes over.
func TestServerSideApplyConflicts(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	manifest := func(replicas string) string {
		return `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: ssa
  namespace: ` + ns + `
spec:
  replicas: ` + replicas + `
  selector:
    matchLabels: {app: ssa}
  template:
    metadata:
      labels: {app: ssa}
    spec:
      containers:
      - name: main
        image: nginx:alpine
`
	}
	if _, err := kubectlStdin(t, manifest("2"), "apply", "--server-side", "--field-manager=team-a", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	_, err := kubectlStdin(t, manifest("4"), "apply", "--server-side", "--field-manager=team-b", "-f", "-")
	if err == nil || !strings.Contains(err.Error(), "conflict") || !strings.Contains(err.Error(), ".spec.replicas") {
		t.Fatalf("second manager's apply: err = %v, want a conflict on .spec.replicas", err)
	}
	if _, err := kubectlStdin(t, manifest("4"), "apply", "--server-side", "--field-manager=team-b", "--force-conflicts", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	cs, err := kruiseClient(t).AppsV1alpha1().CloneSets(ns).Get(context.Background(), "ssa", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if *cs.Spec.Replicas != 4 {
		t.Fatalf("replicas after forced apply = %d, want 4", *cs.Spec.Replicas)
	}
	// Containers merge by name: applying a second container keeps the first.
	two := strings.Replace(manifest("4"), "        image: nginx:alpine\n", "        image: nginx:alpine\n      - name: side\n        image: busybox\n", 1)
	if _, err := kubectlStdin(t, two, "apply", "--server-side", "--field-manager=team-b", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	cs, _ = kruiseClient(t).AppsV1alpha1().CloneSets(ns).Get(context.Background(), "ssa", metav1.GetOptions{})
	if n := len(cs.Spec.Template.Spec.Containers); n != 2 {
		t.Fatalf("containers after applying a second one = %d, want 2", n)
	}
}

// Bad input is rejected with the right status and field path, and storage is unchanged.
func TestBadInputIsRejectedAndLosesNothing(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	client := kruiseClient(t).AppsV1alpha1().CloneSets(ns)
	if _, err := client.Create(ctx, newCloneSet("good"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	stsClient := kruiseClient(t).AppsV1beta1().StatefulSets(ns)

	type check func(t *testing.T) error
	cases := []struct {
		name       string
		do         check
		wantStatus int32
		wantPath   string
	}{
		{"selector does not match labels", func(t *testing.T) error {
			cs := newCloneSet("bad")
			cs.Spec.Template.Labels = map[string]string{"app": "other"}
			_, err := client.Create(ctx, cs, metav1.CreateOptions{})
			return err
		}, 422, "spec.template.metadata.labels"},
		{"empty selector", func(t *testing.T) error {
			cs := newCloneSet("bad")
			cs.Spec.Selector = &metav1.LabelSelector{}
			_, err := client.Create(ctx, cs, metav1.CreateOptions{})
			return err
		}, 422, "spec.selector"},
		{"replicas -1", func(t *testing.T) error {
			cs := newCloneSet("bad")
			cs.Spec.Replicas = ptr.To[int32](-1)
			_, err := client.Create(ctx, cs, metav1.CreateOptions{})
			return err
		}, 422, "spec.replicas"},
		{"partition -1 as a string", func(t *testing.T) error {
			return createUnstructured(t, ns, `{"spec":{"updateStrategy":{"partition":"-1"}}}`)
		}, 422, "spec.updateStrategy.partition"},
		{"maxUnavailable 120%", func(t *testing.T) error {
			return createUnstructured(t, ns, `{"spec":{"updateStrategy":{"maxUnavailable":"120%"}}}`)
		}, 422, "spec.updateStrategy.maxUnavailable"},
		{"v1beta1: maxUnavailable 120% is named where v1beta1 keeps it", func(t *testing.T) error {
			_, err := kruiseClient(t).AppsV1beta1().CloneSets(ns).Patch(ctx, "good", types.MergePatchType,
				[]byte(`{"spec":{"updateStrategy":{"rollingUpdate":{"maxUnavailable":"120%"}}}}`), metav1.PatchOptions{})
			return err
		}, 422, "spec.updateStrategy.rollingUpdate.maxUnavailable"},
		{"maxUnavailable and maxSurge both 0", func(t *testing.T) error {
			return createUnstructured(t, ns, `{"spec":{"updateStrategy":{"maxUnavailable":0,"maxSurge":0}}}`)
		}, 422, "spec.updateStrategy.maxUnavailable"},
		{"selector change on update", func(t *testing.T) error {
			_, err := client.Patch(ctx, "good", types.MergePatchType,
				[]byte(`{"spec":{"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"x"}}}}}`), metav1.PatchOptions{})
			return err
		}, 422, "spec.selector"},
		{"maxUnavailable 3 with OrderedReady", func(t *testing.T) error {
			ss := newStatefulSet("bad")
			ss.Spec.UpdateStrategy.RollingUpdate = &v1beta1.RollingUpdateStatefulSetStrategy{MaxUnavailable: ptr.To(intOrStr(3))}
			_, err := stsClient.Create(ctx, ss, metav1.CreateOptions{})
			return err
		}, 422, "spec.updateStrategy.rollingUpdate.maxUnavailable"},
		{"in-place policy without the readiness gate", func(t *testing.T) error {
			ss := newStatefulSet("bad")
			ss.Spec.UpdateStrategy.RollingUpdate = &v1beta1.RollingUpdateStatefulSetStrategy{PodUpdatePolicy: v1beta1.InPlaceIfPossiblePodUpdateStrategyType}
			_, err := stsClient.Create(ctx, ss, metav1.CreateOptions{})
			return err
		}, 422, "spec.template.spec.readinessGates"},
		{"unknown field with fieldValidation=Strict", func(t *testing.T) error {
			_, err := client.Patch(ctx, "good", types.MergePatchType, []byte(`{"spec":{"replicaz":3}}`),
				metav1.PatchOptions{FieldValidation: "Strict"})
			return err
		}, 422, `unknown field "spec.replicaz"`},
		{"stale resourceVersion", func(t *testing.T) error {
			cs, err := client.Get(ctx, "good", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			cs.ResourceVersion = "1"
			cs.Spec.Replicas = ptr.To[int32](9)
			_, err = client.Update(ctx, cs, metav1.UpdateOptions{})
			return err
		}, 409, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, err := client.Get(ctx, "good", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			err = tc.do(t)
			var status apierrors.APIStatus
			if err == nil || !asStatus(err, &status) {
				t.Fatalf("err = %v, want an API status %d", err, tc.wantStatus)
			}
			if got := status.Status().Code; got != tc.wantStatus {
				t.Fatalf("status %d (%v), want %d", got, err, tc.wantStatus)
			}
			if tc.wantPath != "" && !strings.Contains(err.Error(), tc.wantPath) {
				t.Fatalf("error %q does not name %s", err, tc.wantPath)
			}
			if _, err := client.Get(ctx, "bad", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Fatalf("rejected object was stored (get: %v)", err)
			}
			if _, err := stsClient.Get(ctx, "bad", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Fatalf("rejected statefulset was stored (get: %v)", err)
			}
			after, err := client.Get(ctx, "good", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// The controller may write status meanwhile; what the user owns must not move.
			if after.Generation != before.Generation || !cmp.Equal(before.Spec, after.Spec) ||
				!cmp.Equal(before.Labels, after.Labels) || !cmp.Equal(before.Annotations, after.Annotations) {
				t.Fatalf("a rejected write changed the stored object (generation %d -> %d):\n%s",
					before.Generation, after.Generation, cmp.Diff(before.Spec, after.Spec))
			}
		})
	}
}

func asStatus(err error, status *apierrors.APIStatus) bool {
	s, ok := err.(apierrors.APIStatus)
	if ok {
		*status = s
	}
	return ok
}

// createUnstructured creates a "bad" CloneSet from a valid one merged with a JSON
// fragment, for values typed clients cannot express (e.g. "-1" as a string).
func createUnstructured(t *testing.T, ns, fragment string) error {
	t.Helper()
	base := `{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","metadata":{"name":"bad"},
		"spec":{"replicas":2,"selector":{"matchLabels":{"app":"bad"}},
		"template":{"metadata":{"labels":{"app":"bad"}},"spec":{"containers":[{"name":"main","image":"nginx"}]}}}}`
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON([]byte(base)); err != nil {
		t.Fatal(err)
	}
	var patch map[string]interface{}
	if err := json.Unmarshal([]byte(fragment), &patch); err != nil {
		t.Fatal(err)
	}
	mergeInto(obj.Object, patch)
	_, err := framework.Get(t).Dynamic.Resource(cloneSetsV1alpha1).Namespace(ns).Create(context.Background(), obj, metav1.CreateOptions{})
	return err
}

func mergeInto(dst, src map[string]interface{}) {
	for k, v := range src {
		if sm, ok := v.(map[string]interface{}); ok {
			if dm, ok := dst[k].(map[string]interface{}); ok {
				mergeInto(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

// policy.kruise.io/delete-protection: Always makes deletion 403; Cascading only while
// the workload still has replicas.
func TestDeletionProtection(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	client := kruiseClient(t).AppsV1alpha1().CloneSets(ns)

	always := newCloneSet("always")
	always.Labels = map[string]string{"policy.kruise.io/delete-protection": "Always"}
	cascading := newCloneSet("cascading")
	cascading.Labels = map[string]string{"policy.kruise.io/delete-protection": "Cascading"}
	for _, cs := range []*v1alpha1.CloneSet{always, cascading} {
		if _, err := client.Create(ctx, cs, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	err := client.Delete(ctx, "always", metav1.DeleteOptions{})
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "delete-protection") {
		t.Fatalf("delete of an Always-protected CloneSet: %v, want 403 naming the label", err)
	}
	if err := client.Delete(ctx, "cascading", metav1.DeleteOptions{}); !apierrors.IsForbidden(err) {
		t.Fatalf("delete of a Cascading-protected CloneSet with replicas: %v, want 403", err)
	}
	if _, err := client.Patch(ctx, "cascading", types.MergePatchType, []byte(`{"spec":{"replicas":0}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := client.Delete(ctx, "cascading", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete of a Cascading-protected CloneSet scaled to 0: %v", err)
	}
	// Removing the label lifts the protection; the namespace can then be cleaned up.
	if _, err := client.Patch(ctx, "always", types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"policy.kruise.io/delete-protection":null}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := client.Delete(ctx, "always", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// Discovery lists both kinds with short names and the kruise category; `kubectl get
// kruise` includes CloneSets, `kubectl get all` (kube's core workloads) does not.
func TestDiscovery(t *testing.T) {
	c := framework.Get(t)
	out := kubectl(t, "api-resources", "--api-group=apps.kruise.io", "-o", "wide")
	for _, want := range []string{"clonesets", "clone", "statefulsets", "sts,asts", "kruise"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl api-resources lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "all,") || strings.Contains(out, ",all") {
		t.Errorf("a Kruise kind is in the all category:\n%s", out)
	}
	ns := c.CreateNamespace(t)
	if _, err := kruiseClient(t).AppsV1alpha1().CloneSets(ns).Create(context.Background(), newCloneSet("all"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if out := kubectl(t, "get", "all", "-n", ns); strings.Contains(out, "cloneset.apps.kruise.io/all") {
		t.Errorf("kubectl get all lists the CloneSet:\n%s", out)
	}
	if out := kubectl(t, "get", "kruise", "-n", ns); !strings.Contains(out, "cloneset.apps.kruise.io/all") {
		t.Errorf("kubectl get kruise lacks the CloneSet:\n%s", out)
	}
}

func newStatefulSet(name string) *v1beta1.StatefulSet {
	labels := map[string]string{"app": name}
	return &v1beta1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1beta1.StatefulSetSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:alpine"}}},
			},
		},
	}
}
