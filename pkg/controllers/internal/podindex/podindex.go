// Package podindex indexes pods by the UID of their controller, and orphan pods by
// namespace, so a workload's sync reads its own pods, and the orphans it might adopt,
// from the cache instead of listing every pod in the namespace.
package podindex

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
)

const (
	// OwnerUIDIndex indexes pods by the UID of their controller.
	OwnerUIDIndex = "controllerUID"
	// OrphanIndex indexes pods without a controller by namespace.
	OrphanIndex = "orphanNamespace"
)

// Add installs the indexes on a pod informer; call it before the informer starts.
func Add(informer cache.SharedIndexInformer) error {
	existing := informer.GetIndexer().GetIndexers()
	add := cache.Indexers{}
	if _, ok := existing[OwnerUIDIndex]; !ok {
		add[OwnerUIDIndex] = byControllerUID
	}
	if _, ok := existing[OrphanIndex]; !ok {
		add[OrphanIndex] = orphansByNamespace
	}
	if len(add) == 0 {
		return nil
	}
	return informer.AddIndexers(add)
}

func byControllerUID(obj interface{}) ([]string, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, nil
	}
	if ref := metav1.GetControllerOfNoCopy(pod); ref != nil {
		return []string{string(ref.UID)}, nil
	}
	return nil, nil
}

func orphansByNamespace(obj interface{}) ([]string, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok || metav1.GetControllerOfNoCopy(pod) != nil {
		return nil, nil
	}
	return []string{pod.Namespace}, nil
}

// PodsOwnedBy returns the cached pods whose controller has the given UID.
func PodsOwnedBy(indexer cache.Indexer, uid types.UID) ([]*corev1.Pod, error) {
	return byIndex(indexer, OwnerUIDIndex, string(uid))
}

// Orphans returns the cached pods of namespace that have no controller.
func Orphans(indexer cache.Indexer, namespace string) ([]*corev1.Pod, error) {
	return byIndex(indexer, OrphanIndex, namespace)
}

func byIndex(indexer cache.Indexer, index, value string) ([]*corev1.Pod, error) {
	objs, err := indexer.ByIndex(index, value)
	if err != nil {
		return nil, fmt.Errorf("pods by %s %s: %w", index, value, err)
	}
	pods := make([]*corev1.Pod, 0, len(objs))
	for _, o := range objs {
		if p, ok := o.(*corev1.Pod); ok {
			pods = append(pods, p)
		}
	}
	return pods, nil
}
