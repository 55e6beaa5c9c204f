// Package podindex indexes pods by the UID of their controller, so a workload's sync
// reads its own pods from the cache instead of listing every pod in the namespace.
package podindex

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
)

// OwnerUIDIndex is the name of the index.
const OwnerUIDIndex = "controllerUID"

// Add installs the index on a pod informer; call it before the informer starts.
func Add(informer cache.SharedIndexInformer) error {
	if _, exists := informer.GetIndexer().GetIndexers()[OwnerUIDIndex]; exists {
		return nil
	}
	return informer.AddIndexers(cache.Indexers{OwnerUIDIndex: func(obj interface{}) ([]string, error) {
		pod, ok := obj.(*corev1.Pod)
		if !ok {
			return nil, nil
		}
		if ref := metav1.GetControllerOf(pod); ref != nil {
			return []string{string(ref.UID)}, nil
		}
		return nil, nil
	}})
}

// PodsOwnedBy returns the cached pods whose controller has the given UID.
func PodsOwnedBy(indexer cache.Indexer, uid types.UID) ([]*corev1.Pod, error) {
	objs, err := indexer.ByIndex(OwnerUIDIndex, string(uid))
	if err != nil {
		return nil, fmt.Errorf("pods owned by %s: %w", uid, err)
	}
	pods := make([]*corev1.Pod, 0, len(objs))
	for _, o := range objs {
		if p, ok := o.(*corev1.Pod); ok {
			pods = append(pods, p)
		}
	}
	return pods, nil
}
