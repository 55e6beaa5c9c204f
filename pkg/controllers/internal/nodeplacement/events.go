package nodeplacement

import (
	"maps"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
)

// IsReady reports whether the node's Ready condition is True.
func IsReady(node *corev1.Node) bool {
	for _, c := range node.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// NodeHandler calls enqueueAll when a node comes, goes, or changes what placement
// reads (labels, taints). Status heartbeats and leases change none of that and come
// every few seconds from every node, so they wake nobody. Deciding which owners a
// node concerns costs as much as a sync that finds nothing to do, so every owner
// enqueueAll names is woken.
func NodeHandler(enqueueAll func()) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(interface{}) { enqueueAll() },
		UpdateFunc: func(oldObj, newObj interface{}) {
			old, ok1 := oldObj.(*corev1.Node)
			cur, ok2 := newObj.(*corev1.Node)
			if !ok1 || !ok2 || maps.Equal(old.Labels, cur.Labels) && reflect.DeepEqual(old.Spec.Taints, cur.Spec.Taints) {
				return
			}
			enqueueAll()
		},
		DeleteFunc: func(interface{}) { enqueueAll() },
	}
}
