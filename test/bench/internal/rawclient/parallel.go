package rawclient

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// Parallel runs fn for i in [0,n) on workers goroutines; worker w uses clients[w].
func Parallel(ctx context.Context, workers, n int, fn func(ctx context.Context, worker, i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				fn(ctx, w, i)
			}
		}()
	}
	wg.Wait()
}

// Each runs fn for i in [0,n) on workers goroutines, and fails with how many calls
// failed and the first error, or with ctx's error when it ended first.
func Each(ctx context.Context, workers, n int, fn func(ctx context.Context, i int) error) error {
	var mu sync.Mutex
	var errs []error
	Parallel(ctx, workers, n, func(ctx context.Context, _, i int) {
		if err := fn(ctx, i); err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}
	})
	if len(errs) > 0 {
		return fmt.Errorf("%d of %d failed, first: %w", len(errs), n, errs[0])
	}
	return ctx.Err()
}
