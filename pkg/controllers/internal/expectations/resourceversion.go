package expectations

import (
	"strconv"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// ResourceVersion tracks objects a controller updated: until the informer holds a
// version at least as new as the one the update returned, the cached object is stale
// and must not be acted on again (e.g. updated in place a second time).
type ResourceVersion struct {
	mu    sync.Mutex
	now   func() time.Time
	items map[types.UID]rvEntry
}

type rvEntry struct {
	rv    uint64
	since time.Time
}

// NewResourceVersion returns an empty tracker.
func NewResourceVersion() *ResourceVersion {
	return &ResourceVersion{now: time.Now, items: map[types.UID]rvEntry{}}
}

// Expect records the object as written by us at its current resourceVersion.
func (r *ResourceVersion) Expect(obj metav1.Object) {
	rv, err := strconv.ParseUint(obj.GetResourceVersion(), 10, 64)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.items[obj.GetUID()]; ok && e.rv >= rv {
		return
	}
	r.items[obj.GetUID()] = rvEntry{rv: rv, since: r.now()}
}

// Observe reports whether the cached obj is at least as new as our last write, and
// forgets the expectation once it is (or once it has waited longer than Timeout).
func (r *ResourceVersion) Observe(obj metav1.Object) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.items[obj.GetUID()]
	if !ok {
		return true
	}
	rv, err := strconv.ParseUint(obj.GetResourceVersion(), 10, 64)
	if err != nil || rv >= e.rv || r.now().Sub(e.since) > Timeout {
		delete(r.items, obj.GetUID())
		return true
	}
	return false
}

// Forget drops the expectation for a deleted object.
func (r *ResourceVersion) Forget(uid types.UID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.items, uid)
}
