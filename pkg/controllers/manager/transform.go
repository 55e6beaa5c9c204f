package manager

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"
)

// stripManagedFields drops metadata.managedFields from every object before the
// informers cache it: no controller reads them, and on a pod they are a third or more
// of its size (one entry per writer: the controller, the scheduler, the kubelet),
// held for every pod in the cluster. A write of a cached object without them keeps
// the stored ones: the API server only replaces managedFields a request sets.
func stripManagedFields(obj any) (any, error) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		if stripped, err := stripManagedFields(d.Obj); err == nil {
			d.Obj = stripped
		}
		return d, nil
	}
	if m, err := meta.Accessor(obj); err == nil && m.GetManagedFields() != nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}
