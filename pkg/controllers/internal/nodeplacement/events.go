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

// HandlerOption widens what wakes a NodeHandler.
type HandlerOption func(*handler)

// WakeOnReadyChange also wakes the owners when a node's Ready condition turns True or
// stops being True: for owners that place pods on Ready nodes only (BroadcastJob), a
// node that becomes Ready is a node that joins. The condition's heartbeats (its times)
// wake nobody.
func WakeOnReadyChange() HandlerOption {
	return func(h *handler) { h.ready = true }
}

type handler struct {
	ready bool
}

// NodeHandler calls enqueueAll when a node comes, goes, or changes what placement
// reads (labels, taints; readiness too with WakeOnReadyChange). Status heartbeats and
// leases change none of that and come every few seconds from every node, so they wake
// nobody. Deciding which owners a node concerns costs as much as a sync that finds
// nothing to do, so every owner enqueueAll names is woken.
func NodeHandler(enqueueAll func(), opts ...HandlerOption) cache.ResourceEventHandler {
	var h handler
	for _, o := range opts {
		o(&h)
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(interface{}) { enqueueAll() },
		UpdateFunc: func(oldObj, newObj interface{}) {
			old, ok1 := oldObj.(*corev1.Node)
			cur, ok2 := newObj.(*corev1.Node)
			if !ok1 || !ok2 {
				return
			}
			if !maps.Equal(old.Labels, cur.Labels) || !reflect.DeepEqual(old.Spec.Taints, cur.Spec.Taints) ||
				h.ready && IsReady(old) != IsReady(cur) {
				enqueueAll()
			}
		},
		DeleteFunc: func(interface{}) { enqueueAll() },
	}
}
