package storage_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/utils/ptr"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistrytest "k8s.io/apiserver/pkg/registry/generic/testing"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/apis/autoscaling"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apiserver"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/cloneset/storage"
	"github.com/kruise-native/kruise-native/pkg/registry/registrytest"
	"github.com/kruise-native/kruise-native/pkg/revisiondata"
)

func newStorage(t *testing.T) storage.Storage {
	t.Helper()
	s, err := storage.NewStorage(apiserver.Scheme, registrytest.OptionsGetter(registrytest.NewRESTOptions(t, "clonesets")), nil)
	if err != nil {
		t.Fatalf("NewStorage: %v", err)
	}
	t.Cleanup(s.CloneSet.Store.DestroyFunc)
	return s
}

// validCloneSet is a CloneSet as the registry receives it: decoded from v1alpha1 and defaulted.
func validCloneSet() *apps.CloneSet {
	in := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "cs", Namespace: metav1.NamespaceDefault},
		Spec: v1alpha1.CloneSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "cs"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "cs"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:alpine"}}},
			},
		},
	}
	apiserver.Scheme.Default(in)
	out := &apps.CloneSet{}
	if err := apiserver.Scheme.Convert(in, out, nil); err != nil {
		panic(err)
	}
	return out
}

func TestCreate(t *testing.T) {
	s := newStorage(t)
	test := genericregistrytest.New(t, s.CloneSet.Store)
	cs := validCloneSet()
	cs.ObjectMeta = metav1.ObjectMeta{}
	invalid := validCloneSet()
	invalid.ObjectMeta = metav1.ObjectMeta{}
	invalid.Spec.Template.Labels = map[string]string{"app": "other"}
	test.TestCreate(cs, invalid)
}

func TestUpdate(t *testing.T) {
	s := newStorage(t)
	test := genericregistrytest.New(t, s.CloneSet.Store)
	test.TestUpdate(validCloneSet(),
		func(obj runtime.Object) runtime.Object {
			cs := obj.(*apps.CloneSet)
			*cs.Spec.Replicas = 7
			return cs
		},
		func(obj runtime.Object) runtime.Object {
			cs := obj.(*apps.CloneSet)
			cs.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "changed"}}
			return cs
		},
	)
}

func TestDelete(t *testing.T) {
	s := newStorage(t)
	genericregistrytest.New(t, s.CloneSet.Store).ReturnDeletedObject().TestDelete(validCloneSet())
}

func TestGet(t *testing.T) {
	s := newStorage(t)
	genericregistrytest.New(t, s.CloneSet.Store).TestGet(validCloneSet())
}

func TestList(t *testing.T) {
	s := newStorage(t)
	genericregistrytest.New(t, s.CloneSet.Store).TestList(validCloneSet())
}

func TestWatch(t *testing.T) {
	s := newStorage(t)
	genericregistrytest.New(t, s.CloneSet.Store).TestWatch(validCloneSet(),
		[]labels.Set{{}},
		[]labels.Set{{"a": "c"}, {"foo": "bar"}},
		[]fields.Set{{"metadata.name": "cs"}},
		[]fields.Set{{"metadata.name": "bar"}, {"name": "cs"}},
	)
}

func ctxFor(ns string) context.Context {
	return genericapirequest.WithNamespace(genericapirequest.NewContext(), ns)
}

// Create clears status and starts at generation 1; spec writes bump the generation
// and keep status; status writes keep spec and the generation.
func TestGenerationAndStatusDiscipline(t *testing.T) {
	s := newStorage(t)
	ctx := ctxFor(metav1.NamespaceDefault)
	cs := validCloneSet()
	cs.Status.Replicas = 9
	obj, err := s.CloneSet.Create(ctx, cs, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	created := obj.(*apps.CloneSet)
	if created.Generation != 1 || created.Status.Replicas != 0 {
		t.Fatalf("after create: generation %d, status.replicas %d; want 1 and 0", created.Generation, created.Status.Replicas)
	}

	// Status endpoint: status changes, a spec change in the same body is ignored.
	withStatus := created.DeepCopy()
	withStatus.Status.Replicas = 3
	*withStatus.Spec.Replicas = 42
	obj, _, err = s.Status.Update(ctx, cs.Name, rest.DefaultUpdatedObjectInfo(withStatus), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("status update: %v", err)
	}
	afterStatus := obj.(*apps.CloneSet)
	if afterStatus.Status.Replicas != 3 || *afterStatus.Spec.Replicas != 1 || afterStatus.Generation != 1 {
		t.Fatalf("after status update: status.replicas %d spec.replicas %d generation %d; want 3, 1, 1",
			afterStatus.Status.Replicas, *afterStatus.Spec.Replicas, afterStatus.Generation)
	}

	// Main endpoint: spec changes and bumps the generation, status in the body is ignored.
	withSpec := afterStatus.DeepCopy()
	*withSpec.Spec.Replicas = 5
	withSpec.Status.Replicas = 100
	obj, _, err = s.CloneSet.Update(ctx, cs.Name, rest.DefaultUpdatedObjectInfo(withSpec), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("spec update: %v", err)
	}
	afterSpec := obj.(*apps.CloneSet)
	if *afterSpec.Spec.Replicas != 5 || afterSpec.Status.Replicas != 3 || afterSpec.Generation != 2 {
		t.Fatalf("after spec update: spec.replicas %d status.replicas %d generation %d; want 5, 3, 2",
			*afterSpec.Spec.Replicas, afterSpec.Status.Replicas, afterSpec.Generation)
	}

	// A metadata-only change does not bump the generation.
	withLabel := afterSpec.DeepCopy()
	withLabel.Labels = map[string]string{"team": "a"}
	obj, _, err = s.CloneSet.Update(ctx, cs.Name, rest.DefaultUpdatedObjectInfo(withLabel), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("label update: %v", err)
	}
	if g := obj.(*apps.CloneSet).Generation; g != 2 {
		t.Fatalf("generation after a label change = %d, want 2", g)
	}
}

func TestScale(t *testing.T) {
	s := newStorage(t)
	ctx := ctxFor(metav1.NamespaceDefault)
	cs := validCloneSet()
	if _, err := s.CloneSet.Create(ctx, cs, rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		t.Fatalf("create: %v", err)
	}
	obj, err := s.Scale.Get(ctx, cs.Name, &metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get scale: %v", err)
	}
	sc := obj.(*autoscaling.Scale)
	if sc.Spec.Replicas != 1 || sc.Status.Selector != "app=cs" {
		t.Fatalf("scale = %+v, want replicas 1 and selector app=cs", sc)
	}

	sc.Spec.Replicas = 5
	if _, _, err := s.Scale.Update(ctx, cs.Name, rest.DefaultUpdatedObjectInfo(sc), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
		t.Fatalf("update scale: %v", err)
	}
	got, err := s.CloneSet.Get(ctx, cs.Name, &metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if r := *got.(*apps.CloneSet).Spec.Replicas; r != 5 {
		t.Fatalf("spec.replicas after scale = %d, want 5", r)
	}

	bad := sc.DeepCopy()
	bad.ResourceVersion = ""
	bad.Spec.Replicas = -1
	_, _, err = s.Scale.Update(ctx, cs.Name, rest.DefaultUpdatedObjectInfo(bad), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if !apierrors.IsInvalid(err) {
		t.Fatalf("scale to -1: err = %v, want Invalid", err)
	}
}

func TestShortNamesAndCategories(t *testing.T) {
	s := newStorage(t)
	if got := s.CloneSet.ShortNames(); len(got) != 1 || got[0] != "clone" {
		t.Errorf("short names = %v, want [clone]", got)
	}
	if got := s.CloneSet.Categories(); len(got) != 2 || got[0] != "all" || got[1] != "kruise" {
		t.Errorf("categories = %v, want [all kruise]", got)
	}
}

// Rollback restores the template a ControllerRevision holds; 0 means the previous
// revision; unknown revisions are a 400 listing the ones that exist.
func TestRollback(t *testing.T) {
	var revisions []appsv1.ControllerRevision
	s, err := storage.NewStorage(apiserver.Scheme, registrytest.OptionsGetter(registrytest.NewRESTOptions(t, "clonesets")),
		func(context.Context, string) ([]appsv1.ControllerRevision, error) { return revisions, nil })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.CloneSet.Store.DestroyFunc)
	ctx := ctxFor(metav1.NamespaceDefault)
	obj, err := s.CloneSet.Create(ctx, validCloneSet(), rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cs := obj.(*apps.CloneSet)
	revisionOf := func(number int64, image string) appsv1.ControllerRevision {
		tmpl := cs.Spec.Template.DeepCopy()
		tmpl.Spec.Containers[0].Image = image
		data, err := revisiondata.Encode(tmpl)
		if err != nil {
			t.Fatal(err)
		}
		return appsv1.ControllerRevision{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cs-%d", number), Namespace: cs.Namespace,
				OwnerReferences: []metav1.OwnerReference{{UID: cs.UID, Controller: ptr.To(true), Name: cs.Name, Kind: "CloneSet"}}},
			Revision: number,
			Data:     runtime.RawExtension{Raw: data},
		}
	}
	other := revisionOf(7, "not-ours")
	other.OwnerReferences[0].UID = "someone-else"
	revisions = []appsv1.ControllerRevision{revisionOf(2, "nginx:2"), other, revisionOf(1, "nginx:1"), revisionOf(3, "nginx:alpine")}

	_, err = s.Rollback.Create(ctx, cs.Name, &apps.CloneSetRollback{ToRevision: 9}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if !apierrors.IsBadRequest(err) || !strings.Contains(err.Error(), "available revisions: 1, 2, 3") {
		t.Fatalf("unknown revision: %v, want 400 listing 1, 2, 3", err)
	}
	_, err = s.Rollback.Create(ctx, cs.Name, &apps.CloneSetRollback{Name: "other", ToRevision: 1}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if !apierrors.IsInvalid(err) {
		t.Fatalf("name not matching the URL: %v, want 422", err)
	}
	for _, tc := range []struct {
		to   int64
		want string
	}{{0, "nginx:2"}, {1, "nginx:1"}} {
		out, err := s.Rollback.Create(ctx, cs.Name, &apps.CloneSetRollback{ToRevision: tc.to}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("rollback to %d: %v", tc.to, err)
		}
		if img := out.(*apps.CloneSet).Spec.Template.Spec.Containers[0].Image; img != tc.want {
			t.Fatalf("rollback to %d: image %s, want %s", tc.to, img, tc.want)
		}
	}
}
