// Package ownedpods routes pod events to the workload controlling each pod and keeps
// that workload's expectations, the same way for every workload controller (CloneSet,
// Advanced StatefulSet): which events wake the owner, when a create or delete counts
// as seen, and when a pod's remembered resourceVersion is dropped. Events of orphan
// pods wake the workloads whose selector matches them, so they can adopt the pod
// (see podworkload.Claim), as kube's ReplicaSet and StatefulSet controllers do.
package ownedpods

import (
	"maps"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/controllerref"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
)

// Handler turns pod informer events into work for the owning workload.
type Handler struct {
	// Owner is the group and kind of the controlling workload; pods controlled by any
	// other kind (kube's own StatefulSets, ReplicaSets) are not ours.
	Owner schema.GroupKind
	// Scale sees the creations and deletions the owner expects.
	Scale *expectations.Scale
	// Versions forgets the resourceVersion expected of a deleted pod.
	Versions *expectations.ResourceVersion
	// Enqueue queues the owner's "<namespace>/<name>" key.
	Enqueue func(key string)
	// Matching returns the keys of the workloads whose selector matches an orphan pod
	// (nil: orphans wake nobody).
	Matching func(pod *corev1.Pod) []string
}

// Funcs are the handlers to register on the pod informer.
func (h *Handler) Funcs() cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{AddFunc: h.onAdd, UpdateFunc: h.onUpdate, DeleteFunc: h.onDelete}
}

// ownerKey is the queue key of the workload controlling pod, if it is of Owner's kind.
func (h *Handler) ownerKey(pod *corev1.Pod) (string, bool) {
	return controllerref.OwnerKey(pod, h.Owner)
}

// wakeMatching queues the workloads that may adopt pod, an orphan that is not going away.
func (h *Handler) wakeMatching(pod *corev1.Pod) {
	if h.Matching == nil || pod.DeletionTimestamp != nil || metav1.GetControllerOfNoCopy(pod) != nil {
		return
	}
	for _, key := range h.Matching(pod) {
		h.Enqueue(key)
	}
}

func (h *Handler) onAdd(obj interface{}) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	if key, ok := h.ownerKey(pod); ok {
		h.Scale.Observe(key, expectations.Create, pod.Name)
		h.Enqueue(key)
		return
	}
	h.wakeMatching(pod)
}

func (h *Handler) onUpdate(oldObj, newObj interface{}) {
	pod, ok1 := newObj.(*corev1.Pod)
	old, ok2 := oldObj.(*corev1.Pod)
	if !ok1 || !ok2 || pod.ResourceVersion == old.ResourceVersion {
		return // a resync: nothing changed
	}
	key, owned := h.ownerKey(pod)
	if owned {
		if pod.DeletionTimestamp != nil && old.DeletionTimestamp == nil {
			// A deletion counts as seen once the pod terminates, as kube's ReplicaSet
			// controller counts it: terminating pods are not active, and waiting until
			// they are gone would hold every other change of the workload back for
			// their grace period.
			h.Scale.Observe(key, expectations.Delete, pod.Name)
		}
		h.Enqueue(key)
	}
	oldKey, wasOwned := h.ownerKey(old)
	if wasOwned && (!owned || oldKey != key) {
		h.Enqueue(oldKey) // released or re-owned: the old owner recounts
	}
	// An orphan whose labels changed, or that was just released, may now match a
	// workload that adopts it.
	if metav1.GetControllerOfNoCopy(old) != nil || !maps.Equal(old.Labels, pod.Labels) {
		h.wakeMatching(pod)
	}
}

func (h *Handler) onDelete(obj interface{}) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	h.Versions.Forget(pod.UID)
	if key, ok := h.ownerKey(pod); ok {
		h.Scale.Observe(key, expectations.Delete, pod.Name)
		h.Enqueue(key)
	}
}
