package registrytest

import (
	"context"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	genericregistrytest "k8s.io/apiserver/pkg/registry/generic/testing"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/apis/autoscaling"

	"github.com/kruise-native/kruise-native/pkg/registry/scale"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Workload describes one workload resource for the shared conformance tests.
type Workload[T workload.Object] struct {
	Store  *genericregistry.Store
	Status *workload.StatusREST
	Scale  *scale.REST
	// Valid returns a defaulted object named Name in the default namespace, with
	// selector app=<Name>, 1 replica.
	Valid func() T
	Name  string
	// Replicas points at spec.replicas; StatusReplicas at status.replicas.
	Replicas       func(T) *int32
	StatusReplicas func(T) *int32
	// BreakCreate makes an object invalid; BreakUpdate makes an update invalid.
	BreakCreate, BreakUpdate func(T)
	// Discovery is the main endpoint; it must announce ShortNames and Categories.
	Discovery interface {
		rest.ShortNamesProvider
		rest.CategoriesProvider
	}
	ShortNames, Categories []string
}

// RunWorkloadConformance runs generic registry conformance (create, update, delete,
// get, list, watch) and the rules every Kruise workload shares: status discipline,
// generation, the scale subresource, short names and categories.
func RunWorkloadConformance[T workload.Object](t *testing.T, newWorkload func(t *testing.T) Workload[T]) {
	t.Run("Create", func(t *testing.T) {
		w := newWorkload(t)
		valid, invalid := w.Valid(), w.Valid()
		w.BreakCreate(invalid)
		for _, o := range []T{valid, invalid} {
			o.SetName("")
			o.SetNamespace("")
		}
		genericregistrytest.New(t, w.Store).TestCreate(valid, invalid)
	})
	t.Run("Update", func(t *testing.T) {
		w := newWorkload(t)
		genericregistrytest.New(t, w.Store).TestUpdate(w.Valid(),
			func(obj runtime.Object) runtime.Object { *w.Replicas(obj.(T)) = 7; return obj },
			func(obj runtime.Object) runtime.Object { w.BreakUpdate(obj.(T)); return obj },
		)
	})
	t.Run("Delete", func(t *testing.T) {
		w := newWorkload(t)
		genericregistrytest.New(t, w.Store).ReturnDeletedObject().TestDelete(w.Valid())
	})
	t.Run("Get", func(t *testing.T) { w := newWorkload(t); genericregistrytest.New(t, w.Store).TestGet(w.Valid()) })
	t.Run("List", func(t *testing.T) { w := newWorkload(t); genericregistrytest.New(t, w.Store).TestList(w.Valid()) })
	t.Run("Watch", func(t *testing.T) {
		w := newWorkload(t)
		genericregistrytest.New(t, w.Store).TestWatch(w.Valid(),
			[]labels.Set{{}},
			[]labels.Set{{"a": "c"}, {"foo": "bar"}},
			[]fields.Set{{"metadata.name": w.Name}},
			[]fields.Set{{"metadata.name": "bar"}, {"name": w.Name}},
		)
	})
	t.Run("StatusDiscipline", func(t *testing.T) { testStatusDiscipline(t, newWorkload(t)) })
	t.Run("Scale", func(t *testing.T) { testScale(t, newWorkload(t)) })
	t.Run("ShortNamesAndCategories", func(t *testing.T) {
		w := newWorkload(t)
		if got := w.Discovery.ShortNames(); !slices.Equal(got, w.ShortNames) {
			t.Errorf("short names = %v, want %v", got, w.ShortNames)
		}
		if got := w.Discovery.Categories(); !slices.Equal(got, w.Categories) {
			t.Errorf("categories = %v, want %v", got, w.Categories)
		}
	})
}

// Ctx is a request context in namespace ns.
func Ctx(ns string) context.Context {
	return genericapirequest.WithNamespace(genericapirequest.NewContext(), ns)
}

// Create clears status and starts at generation 1; spec writes bump the generation and
// keep status; status writes keep spec and the generation; metadata-only writes keep it.
func testStatusDiscipline[T workload.Object](t *testing.T, w Workload[T]) {
	ctx := Ctx(metav1.NamespaceDefault)
	obj := w.Valid()
	*w.StatusReplicas(obj) = 9
	out, err := w.Store.Create(ctx, obj, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	created := out.(T)
	if created.GetGeneration() != 1 || *w.StatusReplicas(created) != 0 {
		t.Fatalf("after create: generation %d, status.replicas %d; want 1 and 0", created.GetGeneration(), *w.StatusReplicas(created))
	}
	update := func(r rest.Updater, o T) T {
		t.Helper()
		out, _, err := r.Update(ctx, w.Name, rest.DefaultUpdatedObjectInfo(o), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
		if err != nil {
			t.Fatalf("update: %v", err)
		}
		return out.(T)
	}

	withStatus := created.DeepCopyObject().(T)
	*w.StatusReplicas(withStatus) = 3
	*w.Replicas(withStatus) = 42
	got := update(w.Status, withStatus)
	if *w.StatusReplicas(got) != 3 || *w.Replicas(got) != 1 || got.GetGeneration() != 1 {
		t.Fatalf("after status update: status.replicas %d spec.replicas %d generation %d; want 3, 1, 1",
			*w.StatusReplicas(got), *w.Replicas(got), got.GetGeneration())
	}

	withSpec := got.DeepCopyObject().(T)
	*w.Replicas(withSpec) = 5
	*w.StatusReplicas(withSpec) = 100
	got = update(w.Store, withSpec)
	if *w.Replicas(got) != 5 || *w.StatusReplicas(got) != 3 || got.GetGeneration() != 2 {
		t.Fatalf("after spec update: spec.replicas %d status.replicas %d generation %d; want 5, 3, 2",
			*w.Replicas(got), *w.StatusReplicas(got), got.GetGeneration())
	}

	withLabel := got.DeepCopyObject().(T)
	withLabel.SetLabels(map[string]string{"team": "a"})
	if g := update(w.Store, withLabel).GetGeneration(); g != 2 {
		t.Fatalf("generation after a label change = %d, want 2", g)
	}
}

// The scale subresource reads and writes spec.replicas and reports the selector;
// invalid scales are 422.
func testScale[T workload.Object](t *testing.T, w Workload[T]) {
	ctx := Ctx(metav1.NamespaceDefault)
	if _, err := w.Store.Create(ctx, w.Valid(), rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		t.Fatalf("create: %v", err)
	}
	obj, err := w.Scale.Get(ctx, w.Name, &metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get scale: %v", err)
	}
	sc := obj.(*autoscaling.Scale)
	if sc.Spec.Replicas != 1 || sc.Status.Selector != "app="+w.Name {
		t.Fatalf("scale = %+v, want replicas 1 and selector app=%s", sc, w.Name)
	}
	sc.Spec.Replicas = 5
	if _, _, err := w.Scale.Update(ctx, w.Name, rest.DefaultUpdatedObjectInfo(sc), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
		t.Fatalf("update scale: %v", err)
	}
	got, err := w.Store.Get(ctx, w.Name, &metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if r := *w.Replicas(got.(T)); r != 5 {
		t.Fatalf("spec.replicas after scale = %d, want 5", r)
	}
	bad := sc.DeepCopy()
	bad.ResourceVersion = ""
	bad.Spec.Replicas = -1
	_, _, err = w.Scale.Update(ctx, w.Name, rest.DefaultUpdatedObjectInfo(bad), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if !apierrors.IsInvalid(err) {
		t.Fatalf("scale to -1: err = %v, want Invalid", err)
	}
}
