package watchbuffer

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
	"k8s.io/klog/v2"
)

// OptionsGetter gives every resource storage whose watches are buffered.
type OptionsGetter struct {
	generic.RESTOptionsGetter
	// Capacity is the events a watch may hold (DefaultCapacity when 0).
	Capacity int
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
	capacity := g.Capacity
	opts.Decorator = func(config *storagebackend.ConfigForResource, resourcePrefix string,
		keyFunc func(obj runtime.Object) (string, error), newFunc, newListFunc func() runtime.Object,
		getAttrsFunc storage.AttrFunc, trigger storage.IndexerFuncs, indexers *cache.Indexers) (storage.Interface, factory.DestroyFunc, error) {
		s, destroy, err := decorate(config, resourcePrefix, keyFunc, newFunc, newListFunc, getAttrsFunc, trigger, indexers)
		if err != nil {
			return nil, nil, err
		}
		return bufferedStorage{Interface: s, capacity: capacity}, destroy, nil
	}
	return opts, nil
}

// bufferedStorage is the decorated storage with Watch buffered.
type bufferedStorage struct {
	storage.Interface
	capacity int
}

func (s bufferedStorage) Watch(ctx context.Context, key string, opts storage.ListOptions) (watch.Interface, error) {
	w, err := s.Interface.Watch(ctx, key, opts)
	if err != nil {
		return nil, err
	}
	overflow := func() {
		// Seen by the client only as a watch to reopen: say it where operators look.
		klog.FromContext(ctx).V(2).Info("Ending a watch whose reader fell behind its buffer", "key", key, "capacity", s.capacity)
	}
	return Wrap(w, s.capacity, overflow), nil
}
