// Package reconcile is the work loop every controller shares: a rate-limited queue of
// object keys, workers that sync one key at a time, and requeueing on errors or when
// a sync asks to look again later (deadlines, TTLs, minReadySeconds).
package reconcile

import (
	"context"
	"sync"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// SyncFunc reconciles one key. A positive requeueAfter looks at the key again then.
type SyncFunc func(ctx context.Context, key string) (requeueAfter time.Duration, err error)

// Loop runs a SyncFunc over a queue of keys.
type Loop struct {
	name      string
	queue     workqueue.TypedRateLimitingInterface[string]
	sync      SyncFunc
	hasSynced []cache.InformerSynced

	// deferred holds the keys whose status-only update EnqueueUpdate held back while
	// they were backing off. The sync running at that moment may have read the object
	// before that update, and if it succeeds no backoff retry follows: processNext
	// queues such a key once more, or the update would wait for the next resync.
	mu       sync.Mutex
	deferred map[string]bool
}

// NewLoop returns a loop whose queue reports workqueue metrics under name.
func NewLoop(name string, sync SyncFunc, hasSynced ...cache.InformerSynced) *Loop {
	return &Loop{
		name: name,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: name}),
		sync:      sync,
		hasSynced: hasSynced,
		deferred:  map[string]bool{},
	}
}

// HasSynced reports whether every informer the loop reads has synced.
func (l *Loop) HasSynced() bool {
	for _, s := range l.hasSynced {
		if !s() {
			return false
		}
	}
	return true
}

// Add queues a key.
func (l *Loop) Add(key string) { l.queue.Add(key) }

// AddAfter queues a key after d.
func (l *Loop) AddAfter(key string, d time.Duration) { l.queue.AddAfter(key, d) }

// Enqueue queues an informer object (or tombstone) by its namespace/name key.
func (l *Loop) Enqueue(obj interface{}) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	l.queue.Add(key)
}

// EnqueueUpdate queues an updated informer object, unless the update only wrote its
// status while its key waits out a backoff after a failed sync. Status is what the
// controller itself writes after each sync; re-queueing on it with a plain Add would
// skip the rate limiter, so a sync that fails and reports the failure would retry at
// once, for ever. The backoff's own retry comes anyway, and a sync that succeeds
// meanwhile looks once more (see deferred).
func (l *Loop) EnqueueUpdate(old, cur interface{}) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(cur)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	if l.queue.NumRequeues(key) > 0 && onlyStatusChanged(old, cur) {
		l.mu.Lock()
		l.deferred[key] = true
		l.mu.Unlock()
		return
	}
	l.queue.Add(key)
}

// takeDeferred reports whether an update of key was held back, and clears the mark.
func (l *Loop) takeDeferred(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.deferred[key]
	delete(l.deferred, key)
	return d
}

// Handler queues every added, changed or deleted object of an informer (status-only
// changes as EnqueueUpdate says).
func (l *Loop) Handler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    l.Enqueue,
		UpdateFunc: l.EnqueueUpdate,
		DeleteFunc: l.Enqueue,
	}
}

// Run waits for the caches, then syncs keys with workers until ctx ends, and returns
// once the workers have finished their current keys.
func (l *Loop) Run(ctx context.Context, workers int) {
	defer utilruntime.HandleCrashWithContext(ctx)
	defer l.queue.ShutDown()
	if !cache.WaitForNamedCacheSyncWithContext(ctx, l.hasSynced...) {
		return
	}
	klog.FromContext(ctx).Info("Starting workers", "controller", l.name, "workers", workers)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wait.UntilWithContext(ctx, l.worker, time.Second)
		}()
	}
	<-ctx.Done()
	l.queue.ShutDown()
	wg.Wait()
}

func (l *Loop) worker(ctx context.Context) {
	for l.processNext(ctx) {
	}
}

func (l *Loop) processNext(ctx context.Context) bool {
	key, quit := l.queue.Get()
	if quit {
		return false
	}
	defer l.queue.Done(key)
	ctx = klog.NewContext(ctx, klog.FromContext(ctx).WithValues("controller", l.name, "key", key))
	// Updates held back while the key waited are in the cache this sync reads; only
	// those that come while it runs may be news to it.
	l.takeDeferred(key)
	requeueAfter, err := l.sync(ctx, key)
	if err != nil {
		if ctx.Err() == nil {
			utilruntime.HandleErrorWithContext(ctx, err, "Sync failed, will retry")
		}
		l.takeDeferred(key) // the retry reads the object as it is then
		l.queue.AddRateLimited(key)
		return true
	}
	l.queue.Forget(key)
	if l.takeDeferred(key) {
		// A status-only update came while the key backed off, perhaps after this sync
		// read the object (often the very status it wrote): look at it now.
		l.queue.Add(key)
	}
	if requeueAfter > 0 {
		l.queue.AddAfter(key, requeueAfter)
	}
	return true
}
