package batch

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

func TestForEachRunsAllAndBoundsConcurrency(t *testing.T) {
	var running, peak atomic.Int32
	var mu sync.Mutex
	var seen []int
	err := ForEach([]int{1, 2, 3, 4, 5, 6, 7, 8}, 3, func(i int) error {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		defer running.Add(-1)
		mu.Lock()
		seen = append(seen, i)
		mu.Unlock()
		if i%4 == 0 {
			return errors.New("boom")
		}
		return nil
	})
	slices.Sort(seen)
	if !slices.Equal(seen, []int{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Fatalf("ran %v", seen)
	}
	if peak.Load() > 3 {
		t.Fatalf("%d ran at once, limit 3", peak.Load())
	}
	if err == nil || len(err.(interface{ Unwrap() []error }).Unwrap()) != 2 {
		t.Fatalf("want two joined errors, got %v", err)
	}
}

func TestSlowStartStopsAfterTheFailingBatch(t *testing.T) {
	items := make([]int, 20)
	for i := range items {
		items[i] = i
	}
	var calls atomic.Int32
	attempted, err := SlowStart(items, 16, func(i int) error {
		calls.Add(1)
		if i == 4 { // in the third batch (items 3..6)
			return errors.New("quota")
		}
		return nil
	})
	if err == nil || attempted != 7 || calls.Load() != 7 {
		t.Fatalf("attempted %d, calls %d, err %v; want 7, 7, an error", attempted, calls.Load(), err)
	}
	attempted, err = SlowStart(items, 4, func(int) error { return nil })
	if err != nil || attempted != 20 {
		t.Fatalf("attempted %d, err %v", attempted, err)
	}
	if attempted, err := SlowStart([]int(nil), 4, func(int) error { return nil }); attempted != 0 || err != nil {
		t.Fatalf("empty: %d %v", attempted, err)
	}
}
