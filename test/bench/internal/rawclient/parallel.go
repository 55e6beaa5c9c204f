package rawclient

import (
	"context"
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
