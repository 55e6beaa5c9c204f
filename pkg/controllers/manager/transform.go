package manager

import (
	corev1 "k8s.io/api/core/v1"
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

// internLimit bounds the pod string table: a few hundred entries cover a cluster's
// label keys, images, nodes and enum values many times over.
const internLimit = 1 << 14

// cacheTransform is what the shared informers keep of each object: no managed fields,
// and for a pod, its spec trimmed (trimPod), its slices cut to their length
// (compactPod) and its repeated strings shared (stringTable). The pod is the
// informer's own fresh decode, so editing it in place is safe.
func cacheTransform() cache.TransformFunc {
	table := newStringTable(internLimit)
	return func(obj any) (any, error) {
		out, err := stripManagedFields(obj)
		held := out
		if d, ok := out.(cache.DeletedFinalStateUnknown); ok {
			held = d.Obj // the tombstone holds the pod by pointer
		}
		if pod, ok := held.(*corev1.Pod); ok && err == nil {
			trimPod(pod)
			compactPod(pod)
			table.internPod(pod)
		}
		return out, err
	}
}
