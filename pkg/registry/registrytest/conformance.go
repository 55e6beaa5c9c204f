package registrytest

import (
	"context"
	"slices"
	"testing"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistrytest "k8s.io/apiserver/pkg/registry/generic/testing"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/apis/autoscaling"

	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Fixture is what the conformance suite needs about a kind beyond its descriptor.
type Fixture[T workload.Object] struct {
	// Valid returns a defaulted, valid object named Name (in namespace default unless
	// the kind is cluster-scoped). For kinds with scale: 1 replica, selector app=<Name>.
	Valid func() T
	Name  string
	// BreakCreate makes an object invalid; BreakUpdate makes an update invalid.
	BreakCreate, BreakUpdate func(T)
	// ChangeSpec makes a valid spec change; ChangeStatus a valid status change.
	ChangeSpec, ChangeStatus func(T)
}

// Endpoints builds k's endpoints. Unless deps say otherwise, they run on a private
// etcd, encoded as kruise-apiserver stores objects, with the scheme it serves.
func Endpoints[T workload.Object, Spec, Status any](t *testing.T, k resource.Kind[T, Spec, Status], deps resource.Deps) resource.Endpoints {
	t.Helper()
	if deps.RESTOptions == nil {
		deps.RESTOptions = OptionsGetter(NewRESTOptions(t, k.GroupResource()))
	}
	if deps.Scheme == nil {
		deps.Scheme = scheme.Scheme
	}
	e, err := k.Endpoints(deps)
	if err != nil {
		t.Fatalf("endpoints of %s: %v", k.GroupResource(), err)
	}
	t.Cleanup(e.Main.Store.DestroyFunc)
	return e
}

// RunConformance runs generic registry conformance (create, update, delete, get, list,
// watch) over k's endpoints, and the rules every Kruise resource shares: status
// discipline, generation, the scale subresource where there is one, short names and
// categories.
func RunConformance[T workload.Object, Spec, Status any](t *testing.T, k resource.Kind[T, Spec, Status], fx Fixture[T], deps resource.Deps) {
	tester := func(t *testing.T) (*genericregistrytest.Tester, resource.Endpoints) {
		e := Endpoints(t, k, deps)
		tt := genericregistrytest.New(t, e.Main.Store)
		if k.ClusterScoped {
			tt = tt.ClusterScope()
		}
		return tt, e
	}
	t.Run("Create", func(t *testing.T) {
		tt, _ := tester(t)
		valid, invalid := fx.Valid(), fx.Valid()
		fx.BreakCreate(invalid)
		for _, o := range []T{valid, invalid} {
			o.SetNamespace("")
			if !k.ClusterScoped { // the tester names namespaced objects itself
				o.SetName("")
			}
		}
		tt.TestCreate(valid, invalid)
	})
	t.Run("Update", func(t *testing.T) {
		tt, _ := tester(t)
		tt.TestUpdate(fx.Valid(),
			func(obj runtime.Object) runtime.Object { fx.ChangeSpec(obj.(T)); return obj },
			func(obj runtime.Object) runtime.Object { fx.BreakUpdate(obj.(T)); return obj },
		)
	})
	t.Run("Delete", func(t *testing.T) { tt, _ := tester(t); tt.ReturnDeletedObject().TestDelete(fx.Valid()) })
	t.Run("Get", func(t *testing.T) { tt, _ := tester(t); tt.TestGet(fx.Valid()) })
	t.Run("List", func(t *testing.T) { tt, _ := tester(t); tt.TestList(fx.Valid()) })
	t.Run("Watch", func(t *testing.T) {
		tt, _ := tester(t)
		tt.TestWatch(fx.Valid(),
			[]labels.Set{{}},
			[]labels.Set{{"a": "c"}, {"foo": "bar"}},
			[]fields.Set{{"metadata.name": fx.Name}},
			[]fields.Set{{"metadata.name": "bar"}, {"name": fx.Name}},
		)
	})
	t.Run("StatusDiscipline", func(t *testing.T) {
		_, e := tester(t)
		testStatusDiscipline(t, k, fx, e, ctxFor(k.ClusterScoped))
	})
	if k.Scale != nil {
		t.Run("Scale", func(t *testing.T) {
			_, e := tester(t)
			testScale(t, k, fx, e, ctxFor(k.ClusterScoped))
		})
	}
	t.Run("ShortNamesAndCategories", func(t *testing.T) {
		_, e := tester(t)
		if got := e.Main.ShortNames(); !slices.Equal(got, k.ShortNames) {
			t.Errorf("short names = %v, want %v", got, k.ShortNames)
		}
		if got := e.Main.Categories(); !slices.Equal(got, k.Categories) {
			t.Errorf("categories = %v, want %v", got, k.Categories)
		}
		// `kubectl get kruise` lists every Kruise kind. `all` is kube's core workloads
		// only: a kind of an aggregated API in it would make `kubectl get all` fail for
		// every user whenever kruise-apiserver is down.
		if !slices.Contains(k.Categories, "kruise") {
			t.Errorf("categories = %v, want the kruise category", k.Categories)
		}
		if slices.Contains(k.Categories, "all") {
			t.Errorf("categories = %v: a Kruise kind must not be in the all category", k.Categories)
		}
	})
}

// Ctx is a request context in namespace ns.
func Ctx(ns string) context.Context {
	return genericapirequest.WithNamespace(genericapirequest.NewContext(), ns)
}

func ctxFor(clusterScoped bool) context.Context {
	if clusterScoped {
		return Ctx(metav1.NamespaceNone)
	}
	return Ctx(metav1.NamespaceDefault)
}

// Create clears status and starts at generation 1; status writes keep spec and the
// generation; spec writes bump the generation and keep status; metadata-only writes
// keep the generation.
func testStatusDiscipline[T workload.Object, Spec, Status any](t *testing.T, k resource.Kind[T, Spec, Status], fx Fixture[T], e resource.Endpoints, ctx context.Context) {
	obj := fx.Valid()
	fx.ChangeStatus(obj)
	out, err := e.Main.Create(ctx, obj, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	created := out.(T)
	var zero Status
	if created.GetGeneration() != 1 || !apiequality.Semantic.DeepEqual(*k.Status(created), zero) {
		t.Fatalf("after create: generation %d, status %+v; want 1 and an empty status", created.GetGeneration(), *k.Status(created))
	}
	update := func(r rest.Updater, o T) T {
		t.Helper()
		out, _, err := r.Update(ctx, fx.Name, rest.DefaultUpdatedObjectInfo(o), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
		if err != nil {
			t.Fatalf("update: %v", err)
		}
		return out.(T)
	}

	withStatus := created.DeepCopyObject().(T)
	fx.ChangeStatus(withStatus)
	fx.ChangeSpec(withStatus)
	got := update(e.Status, withStatus)
	if !apiequality.Semantic.DeepEqual(*k.Spec(got), *k.Spec(created)) || got.GetGeneration() != 1 {
		t.Fatalf("status update changed the spec or the generation (%d)", got.GetGeneration())
	}
	if !apiequality.Semantic.DeepEqual(*k.Status(got), *k.Status(withStatus)) {
		t.Fatalf("status update did not write status: got %+v, want %+v", *k.Status(got), *k.Status(withStatus))
	}

	withSpec := got.DeepCopyObject().(T)
	fx.ChangeSpec(withSpec)
	var cleared Status
	*k.Status(withSpec) = cleared
	after := update(e.Main, withSpec)
	if !apiequality.Semantic.DeepEqual(*k.Spec(after), *k.Spec(withSpec)) || after.GetGeneration() != 2 {
		t.Fatalf("spec update: spec written %v, generation %d; want written and 2",
			apiequality.Semantic.DeepEqual(*k.Spec(after), *k.Spec(withSpec)), after.GetGeneration())
	}
	if !apiequality.Semantic.DeepEqual(*k.Status(after), *k.Status(got)) {
		t.Fatalf("spec update changed status: %+v, want %+v", *k.Status(after), *k.Status(got))
	}

	withLabel := after.DeepCopyObject().(T)
	labels := withLabel.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels["team"] = "a"
	withLabel.SetLabels(labels)
	if g := update(e.Main, withLabel).GetGeneration(); g != 2 {
		t.Fatalf("generation after a label change = %d, want 2", g)
	}
}

// The scale subresource reads and writes spec.replicas and reports the selector;
// invalid scales are 422.
func testScale[T workload.Object, Spec, Status any](t *testing.T, k resource.Kind[T, Spec, Status], fx Fixture[T], e resource.Endpoints, ctx context.Context) {
	if _, err := e.Main.Create(ctx, fx.Valid(), rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		t.Fatalf("create: %v", err)
	}
	obj, err := e.Scale.Get(ctx, fx.Name, &metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get scale: %v", err)
	}
	sc := obj.(*autoscaling.Scale)
	if sc.Spec.Replicas != 1 || sc.Status.Selector != "app="+fx.Name {
		t.Fatalf("scale = %+v, want replicas 1 and selector app=%s", sc, fx.Name)
	}
	sc.Spec.Replicas = 5
	if _, _, err := e.Scale.Update(ctx, fx.Name, rest.DefaultUpdatedObjectInfo(sc), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
		t.Fatalf("update scale: %v", err)
	}
	got, err := e.Main.Get(ctx, fx.Name, &metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if r := *k.Scale.Replicas(got.(T)); r != 5 {
		t.Fatalf("spec.replicas after scale = %d, want 5", r)
	}
	bad := sc.DeepCopy()
	bad.ResourceVersion = ""
	bad.Spec.Replicas = -1
	_, _, err = e.Scale.Update(ctx, fx.Name, rest.DefaultUpdatedObjectInfo(bad), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if !apierrors.IsInvalid(err) {
		t.Fatalf("scale to -1: err = %v, want Invalid", err)
	}
}
