package etcderrors

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/tools/cache"
)

// OptionsGetter gives every resource storage whose errors pass through Retriable. It
// wraps the storage below the registry, so every endpoint built on it (main,
// status, scale, rollback and other subresources) answers the same way.
type OptionsGetter struct {
	generic.RESTOptionsGetter
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
	opts.Decorator = func(config *storagebackend.ConfigForResource, resourcePrefix string,
		keyFunc func(obj runtime.Object) (string, error), newFunc, newListFunc func() runtime.Object,
		getAttrsFunc storage.AttrFunc, trigger storage.IndexerFuncs, indexers *cache.Indexers) (storage.Interface, factory.DestroyFunc, error) {
		s, destroy, err := decorate(config, resourcePrefix, keyFunc, newFunc, newListFunc, getAttrsFunc, trigger, indexers)
		if err != nil {
			return nil, nil, err
		}
		return Storage{Interface: s}, destroy, nil
	}
	return opts, nil
}

// Storage is a storage.Interface whose calls return Retriable errors. The generic
// registry passes such a status through its storage-error interpretation unchanged,
// and the handler writes its code and Retry-After.
type Storage struct {
	storage.Interface
}

func (s Storage) Create(ctx context.Context, key string, obj, out runtime.Object, ttl uint64) error {
	return Retriable(s.Interface.Create(ctx, key, obj, out, ttl))
}

func (s Storage) Delete(ctx context.Context, key string, out runtime.Object, preconditions *storage.Preconditions,
	validateDeletion storage.ValidateObjectFunc, cachedExistingObject runtime.Object, opts storage.DeleteOptions) error {
	return Retriable(s.Interface.Delete(ctx, key, out, preconditions, validateDeletion, cachedExistingObject, opts))
}

func (s Storage) Watch(ctx context.Context, key string, opts storage.ListOptions) (watch.Interface, error) {
	w, err := s.Interface.Watch(ctx, key, opts)
	return w, Retriable(err)
}

func (s Storage) Get(ctx context.Context, key string, opts storage.GetOptions, objPtr runtime.Object) error {
	return Retriable(s.Interface.Get(ctx, key, opts, objPtr))
}

func (s Storage) GetList(ctx context.Context, key string, opts storage.ListOptions, listObj runtime.Object) error {
	return Retriable(s.Interface.GetList(ctx, key, opts, listObj))
}

func (s Storage) GuaranteedUpdate(ctx context.Context, key string, destination runtime.Object, ignoreNotFound bool,
	preconditions *storage.Preconditions, tryUpdate storage.UpdateFunc, cachedExistingObject runtime.Object) error {
	return Retriable(s.Interface.GuaranteedUpdate(ctx, key, destination, ignoreNotFound, preconditions, tryUpdate, cachedExistingObject))
}
