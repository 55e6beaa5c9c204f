package etcderrors

import (
	"context"
	"testing"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/tools/cache"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/cloneset"
	"github.com/kruise-native/kruise-native/pkg/registry/registrytest"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// failing is etcd during a leader election once err is set: every call fails with it.
type failing struct {
	storage.Interface
	err error
}

func (f *failing) Create(ctx context.Context, key string, obj, out runtime.Object, ttl uint64) error {
	if f.err != nil {
		return f.err
	}
	return f.Interface.Create(ctx, key, obj, out, ttl)
}

func (f *failing) Get(ctx context.Context, key string, opts storage.GetOptions, out runtime.Object) error {
	if f.err != nil {
		return f.err
	}
	return f.Interface.Get(ctx, key, opts, out)
}

func (f *failing) GuaranteedUpdate(ctx context.Context, key string, dest runtime.Object, ignoreNotFound bool,
	pre *storage.Preconditions, tryUpdate storage.UpdateFunc, cached runtime.Object) error {
	if f.err != nil {
		return f.err
	}
	return f.Interface.GuaranteedUpdate(ctx, key, dest, ignoreNotFound, pre, tryUpdate, cached)
}

func (f *failing) Delete(ctx context.Context, key string, out runtime.Object, pre *storage.Preconditions,
	validate storage.ValidateObjectFunc, cached runtime.Object, opts storage.DeleteOptions) error {
	if f.err != nil {
		return f.err
	}
	return f.Interface.Delete(ctx, key, out, pre, validate, cached, opts)
}

// breakable decorates real storage with a switch that makes it fail.
type breakable struct {
	generic.RESTOptionsGetter
	f *failing
}

func (b breakable) GetRESTOptions(gr schema.GroupResource, example runtime.Object) (generic.RESTOptions, error) {
	opts, err := b.RESTOptionsGetter.GetRESTOptions(gr, example)
	if err != nil {
		return opts, err
	}
	decorate := opts.Decorator
	opts.Decorator = func(config *storagebackend.ConfigForResource, prefix string, keyFunc func(runtime.Object) (string, error),
		newFunc, newListFunc func() runtime.Object, attrs storage.AttrFunc, trigger storage.IndexerFuncs,
		indexers *cache.Indexers) (storage.Interface, factory.DestroyFunc, error) {
		s, destroy, err := decorate(config, prefix, keyFunc, newFunc, newListFunc, attrs, trigger, indexers)
		b.f.Interface = s
		return b.f, destroy, err
	}
	return opts, nil
}

// Every endpoint built on OptionsGetter's storage — a CloneSet's main endpoint, its
// status and scale — answers an etcd leader loss with 504 and Retry-After, and a
// missing leader with 503: the generic registry passes the status through.
func TestEndpointsAnswerRetriable(t *testing.T) {
	f := &failing{}
	deps := resource.Deps{RESTOptions: OptionsGetter(breakable{
		RESTOptionsGetter: registrytest.OptionsGetter(registrytest.NewRESTOptions(t, cloneset.Kind.GroupResource())), f: f})}
	e := registrytest.Endpoints(t, cloneset.Kind, deps)
	ctx := registrytest.Ctx(metav1.NamespaceDefault)
	cs := &apps.CloneSet{}
	v1 := &v1alpha1.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: "cs", Namespace: metav1.NamespaceDefault},
		Spec: v1alpha1.CloneSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "cs"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "cs"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
			},
		}}
	scheme.Scheme.Default(v1)
	if err := scheme.Scheme.Convert(v1, cs, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Main.Create(ctx, cs.DeepCopy(), rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		t.Fatal(err) // etcd still fine
	}

	calls := map[string]func() error{
		"create": func() error {
			other := cs.DeepCopy()
			other.Name = "other"
			_, err := e.Main.Create(ctx, other, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
			return err
		},
		"get": func() error { _, err := e.Main.Get(ctx, "cs", &metav1.GetOptions{}); return err },
		"update": func() error {
			_, _, err := e.Main.Update(ctx, "cs", rest.DefaultUpdatedObjectInfo(cs.DeepCopy()), rest.ValidateAllObjectFunc,
				rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
			return err
		},
		"status update": func() error {
			_, _, err := e.Status.Update(ctx, "cs", rest.DefaultUpdatedObjectInfo(cs.DeepCopy()), rest.ValidateAllObjectFunc,
				rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
			return err
		},
		"scale get": func() error { _, err := e.Scale.Get(ctx, "cs", &metav1.GetOptions{}); return err },
		"delete": func() error {
			_, _, err := e.Main.Delete(ctx, "cs", rest.ValidateAllObjectFunc, &metav1.DeleteOptions{})
			return err
		},
	}
	for _, tc := range []struct {
		etcd error
		code int32
	}{
		{rpctypes.ErrTimeoutDueToLeaderFail, 504},
		{rpctypes.ErrNoLeader, 503},
	} {
		f.err = tc.etcd
		for name, call := range calls {
			err := call()
			s := responsewriters.ErrorToAPIStatus(err)
			if s.Code != tc.code || s.Details == nil || s.Details.RetryAfterSeconds != RetryAfterSeconds {
				t.Errorf("%s while etcd answers %q: %d %s (details %+v), want %d with Retry-After %d",
					name, tc.etcd, s.Code, s.Message, s.Details, tc.code, RetryAfterSeconds)
			}
		}
	}
}
