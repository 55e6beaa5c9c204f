// Package storagewrap puts a wrapper around every resource storage kruise-apiserver
// builds, below the generic registry and above the decorators already set (the watch
// cache), so that each wrapper (watch buffering, etcd error statuses) is one type
// around storage.Interface instead of its own copy of the decorator plumbing.
package storagewrap

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/tools/cache"
)

// OptionsGetter gives every resource the storage of the embedded getter, wrapped by Wrap.
type OptionsGetter struct {
	generic.RESTOptionsGetter
	Wrap func(storage.Interface) storage.Interface
}

// GetRESTOptions wraps the storage the embedded getter decorates.
func (g OptionsGetter) GetRESTOptions(gr schema.GroupResource, example runtime.Object) (generic.RESTOptions, error) {
	opts, err := g.RESTOptionsGetter.GetRESTOptions(gr, example)
	if err != nil {
		return opts, err
	}
	decorate := opts.Decorator
	if decorate == nil {
		decorate = generic.UndecoratedStorage
	}
	wrap := g.Wrap
	opts.Decorator = func(config *storagebackend.ConfigForResource, resourcePrefix string,
		keyFunc func(obj runtime.Object) (string, error), newFunc, newListFunc func() runtime.Object,
		getAttrsFunc storage.AttrFunc, trigger storage.IndexerFuncs, indexers *cache.Indexers) (storage.Interface, factory.DestroyFunc, error) {
		s, destroy, err := decorate(config, resourcePrefix, keyFunc, newFunc, newListFunc, getAttrsFunc, trigger, indexers)
		if err != nil {
			return nil, nil, err
		}
		return wrap(s), destroy, nil
	}
	return opts, nil
}
