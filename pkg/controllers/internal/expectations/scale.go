// Package expectations remembers the writes a controller has made but not yet seen in
// its informer cache, so a sync on a stale cache does not create or delete pods twice.
// Every workload controller uses the same implementation.
package expectations

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
)

// Timeout after which unobserved expectations are dropped: a watch event can be lost
// (or the object deleted by someone else), and a controller must not wait forever.
const Timeout = 5 * time.Minute

// Action is what was expected to happen to an object.
type Action string

const (
	Create Action = "create"
	Delete Action = "delete"
)

// Scale tracks pending creations and deletions per controller key, by object name.
type Scale struct {
	mu    sync.Mutex
	now   func() time.Time
	items map[string]*scaleEntry
}

type scaleEntry struct {
	pending map[Action]sets.Set[string]
	since   time.Time
}

// NewScale returns an empty tracker.
func NewScale() *Scale {
	return &Scale{now: time.Now, items: map[string]*scaleEntry{}}
}

// Expect records that names will be created or deleted for key.
func (s *Scale) Expect(key string, action Action, names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.items[key]
	if e == nil {
		e = &scaleEntry{pending: map[Action]sets.Set[string]{}}
		s.items[key] = e
	}
	if e.pending[action] == nil {
		e.pending[action] = sets.New[string]()
	}
	if e.pending[action].Len() == 0 {
		e.since = s.now()
	}
	e.pending[action].Insert(names...)
}

// Observe records that the informer saw name created or deleted (or that the write
// failed and will never be seen).
func (s *Scale) Observe(key string, action Action, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.items[key]; e != nil && e.pending[action] != nil {
		e.pending[action].Delete(name)
	}
}

// Satisfied reports whether every expected write for key has been observed, or the
// oldest has waited longer than Timeout (then the expectations are dropped).
func (s *Scale) Satisfied(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.items[key]
	if e == nil {
		return true
	}
	pending := 0
	for _, names := range e.pending {
		pending += names.Len()
	}
	if pending == 0 {
		delete(s.items, key)
		return true
	}
	if s.now().Sub(e.since) > Timeout {
		delete(s.items, key)
		return true
	}
	return false
}

// Forget drops everything expected for key (the owner was deleted).
func (s *Scale) Forget(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.items, key)
}
