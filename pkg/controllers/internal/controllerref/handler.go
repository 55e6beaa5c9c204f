package controllerref

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
)

// EnqueueOwner returns informer handlers that queue the controlling owner of kind
// owner of every object added, changed or deleted; an object whose controller changed
// also queues the previous one, which has one child fewer to count.
func EnqueueOwner(owner schema.GroupKind, enqueue func(key string)) cache.ResourceEventHandlerFuncs {
	add := func(obj interface{}) {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		if m, ok := obj.(metav1.Object); ok {
			if key, ok := OwnerKey(m, owner); ok {
				enqueue(key)
			}
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: add,
		UpdateFunc: func(oldObj, newObj interface{}) {
			oldM, ok1 := oldObj.(metav1.Object)
			newM, ok2 := newObj.(metav1.Object)
			if !ok1 || !ok2 || oldM.GetResourceVersion() == newM.GetResourceVersion() {
				return // a resync: nothing changed
			}
			key, owned := OwnerKey(newM, owner)
			if owned {
				enqueue(key)
			}
			if oldKey, ok := OwnerKey(oldM, owner); ok && (!owned || oldKey != key) {
				enqueue(oldKey)
			}
		},
		DeleteFunc: add,
	}
}

// EnqueueClusterScopedOwner is EnqueueOwner for a cluster-scoped owner of namespaced
// objects (ResourceDistribution owning its copies): it queues the owner's name alone,
// the key of a cluster-scoped object.
func EnqueueClusterScopedOwner(owner schema.GroupKind, enqueue func(key string)) cache.ResourceEventHandlerFuncs {
	return EnqueueOwner(owner, func(key string) {
		if _, name, err := cache.SplitMetaNamespaceKey(key); err == nil {
			enqueue(name)
		}
	})
}
