package podworkload

import (
	"sync"
	"time"
)

// StatusDeferral is how soon a sync looks again after leaving its status write to a
// later sync; MaxStatusLag is how long a workload's status write may be put off in all.
const (
	StatusDeferral = time.Second
	MaxStatusLag   = 2 * time.Second
)

// statusDeferrals lets a sync that just sent pod writes leave its status write to a
// later sync. Its counts are of pods those writes are about to change, and the watch
// events of the writes bring the next sync, which counts them as they are: written
// every time, a workload costs a status write per sync that writes pods (at creation,
// one before its pods exist and another once they do). A write put off for
// MaxStatusLag is made, so a plan that repeats without its pods changing (a hook or a
// budget holding a pod) never keeps the status stale for longer; the stored status is
// never wrong meanwhile, only older (its observedGeneration says which spec it is of).
// Safe for concurrent use; one per StatusWriter.
type statusDeferrals struct {
	mu    sync.Mutex
	since map[string]time.Time
}

// Defer reports whether the sync of the workload key, at now, leaves its changed status
// to a later sync. deferrable is the kind's rule (see StatusWriter.Write): the sync
// sent pod writes, did not fail, and changed nothing its kind writes at once. When it defers, it asks requeue
// for another sync before the lag runs out (in case no event comes); when it does not,
// the workload's deferral ends, and the caller writes.
func (d *statusDeferrals) Defer(key string, now time.Time, deferrable bool, requeue *Requeue) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	since, deferring := d.since[key]
	lag := time.Duration(0)
	if deferring {
		lag = now.Sub(since)
	}
	if !deferrable || lag >= MaxStatusLag {
		delete(d.since, key)
		return false
	}
	if !deferring {
		if d.since == nil {
			d.since = map[string]time.Time{}
		}
		d.since[key] = now
	}
	requeue.After(min(StatusDeferral, MaxStatusLag-lag))
	return true
}

// Forget ends key's deferral: its status is written or unchanged, or the workload is
// gone.
func (d *statusDeferrals) Forget(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.since, key)
}
