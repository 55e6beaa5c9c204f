package etcderrors

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/storage"

	"github.com/kruise-native/kruise-native/pkg/apiserver/storagewrap"
)

// OptionsGetter gives every resource the storage of g, its calls returning Retriable
// errors. It wraps the storage below the registry, so every endpoint built on it (main,
// status, scale, rollback and other subresources) answers the same way.
func OptionsGetter(g generic.RESTOptionsGetter) generic.RESTOptionsGetter {
	return storagewrap.OptionsGetter{RESTOptionsGetter: g, Wrap: func(s storage.Interface) storage.Interface {
		return Storage{Interface: s}
	}}
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
