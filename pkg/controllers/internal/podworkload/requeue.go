package podworkload

import (
	"sync"
	"time"
)

// Requeue collects the delays after which a sync wants to look again (a grace period
// or minReadySeconds running out); the shortest wins. Parallel writes report into it,
// so it is safe for concurrent use.
type Requeue struct {
	mu sync.Mutex
	d  time.Duration
}

// After asks for another sync after d; 0 or less asks nothing.
func (r *Requeue) After(d time.Duration) {
	if d <= 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.d == 0 || d < r.d {
		r.d = d
	}
}

// Get is the shortest delay asked for, 0 when none.
func (r *Requeue) Get() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.d
}
