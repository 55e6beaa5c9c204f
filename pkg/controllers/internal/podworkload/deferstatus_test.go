package podworkload

import (
	"testing"
	"time"
)

// A deferrable sync puts its status write off and asks for a sync before the lag runs
// out; once a write has been put off for MaxStatusLag, or the sync may not defer, the
// write is made and the deferral ends.
func TestStatusDeferrals(t *testing.T) {
	t0 := time.Unix(1000, 0)
	type step struct {
		at          time.Duration // since t0
		deferrable  bool
		wantDefer   bool
		wantRequeue time.Duration
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{name: "not deferrable", steps: []step{{at: 0}}},
		{name: "deferred, then written once no longer deferrable", steps: []step{
			{at: 0, deferrable: true, wantDefer: true, wantRequeue: StatusDeferral},
			{at: 500 * time.Millisecond},
			{at: time.Second, deferrable: true, wantDefer: true, wantRequeue: StatusDeferral},
		}},
		{name: "lag bounded", steps: []step{
			{at: 0, deferrable: true, wantDefer: true, wantRequeue: StatusDeferral},
			{at: 1500 * time.Millisecond, deferrable: true, wantDefer: true, wantRequeue: 500 * time.Millisecond},
			{at: MaxStatusLag, deferrable: true},
			{at: MaxStatusLag + time.Millisecond, deferrable: true, wantDefer: true, wantRequeue: StatusDeferral},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d statusDeferrals
			for i, s := range tc.steps {
				var r Requeue
				if got := d.Defer("ns/a", t0.Add(s.at), s.deferrable, &r); got != s.wantDefer {
					t.Fatalf("step %d: Defer = %v, want %v", i, got, s.wantDefer)
				}
				if got := r.Get(); got != s.wantRequeue {
					t.Errorf("step %d: requeue %v, want %v", i, got, s.wantRequeue)
				}
			}
		})
	}
}

// Forget ends a deferral: the next one starts its lag afresh.
func TestStatusDeferralsForget(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var d statusDeferrals
	var r Requeue
	d.Defer("ns/a", t0, true, &r)
	d.Forget("ns/a")
	if !d.Defer("ns/a", t0.Add(MaxStatusLag), true, &r) {
		t.Error("after Forget, a deferral should start afresh")
	}
}
