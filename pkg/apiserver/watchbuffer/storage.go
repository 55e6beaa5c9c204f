package watchbuffer

import (
	"context"

	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apiserver/storagewrap"
)

// OptionsGetter gives every resource the storage of g with its watches buffered, each
// holding up to capacity events (DefaultCapacity when 0).
func OptionsGetter(g generic.RESTOptionsGetter, capacity int) generic.RESTOptionsGetter {
	return storagewrap.OptionsGetter{RESTOptionsGetter: g, Wrap: func(s storage.Interface) storage.Interface {
		return bufferedStorage{Interface: s, capacity: capacity}
	}}
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
