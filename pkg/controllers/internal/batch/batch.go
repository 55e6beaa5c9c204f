// Package batch runs a controller's independent API writes concurrently, the way kube's
// workload controllers do: all at once with a bound on concurrency (ForEach), or in
// slow-start batches that stop at the first failure (SlowStart). The client's QPS
// limit is what really paces the writes; the bound only caps goroutines.
package batch

import (
	"errors"
	"sync"
)

// ForEach runs fn on every item, at most limit at a time (limit < 1 means 1), and
// joins the errors.
func ForEach[T any](items []T, limit int, fn func(T) error) error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
		sem  = make(chan struct{}, max(limit, 1))
	)
	for _, item := range items {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(item); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// SlowStart runs fn on items in batches of 1, 2, 4, ... (at most limit at once) and
// stops after the first batch with an error: when writes fail for a reason that will
// not go away by itself (quota, admission, a missing service account), a sync wastes
// a few writes, not one per item. It returns how many items were attempted; the
// caller forgets whatever it expected of the others.
func SlowStart[T any](items []T, limit int, fn func(T) error) (attempted int, err error) {
	limit = max(limit, 1)
	for size := 1; attempted < len(items); size = min(2*size, limit) {
		n := min(size, len(items)-attempted)
		if err := ForEach(items[attempted:attempted+n], limit, fn); err != nil {
			return attempted + n, err
		}
		attempted += n
	}
	return attempted, nil
}
