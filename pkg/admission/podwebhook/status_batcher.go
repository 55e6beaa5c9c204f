package podwebhook

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
)

const (
	// commitAttempts bounds the read-decide-write rounds of one batch. Requests for one
	// object are batched in this process, so a conflict means the controller or
	// another kruise-apiserver replica wrote in between.
	commitAttempts = 10
	// commitTimeout bounds one batch's writes: past the webhook's timeoutSeconds
	// nobody waits for the answer any more.
	commitTimeout = 10 * time.Second
)

// statusObject is a served object whose status a webhook spends from: a budget's
// disruption slots, a WorkloadSpread's subset slots.
type statusObject[T any] interface {
	metav1.Object
	DeepCopy() T
}

// statusBatcher takes slots from objects' statuses for webhook handlers, with
// optimistic concurrency. Concurrent requests against one object would all read the
// same status, and all but one write would conflict, round after round. Instead the
// requests that arrive while a write of the object is in flight queue up, and the next
// write decides them all in arrival order and records them in one status update (group
// commit), on the status the previous write left (kept in memory, so no read either).
// Correctness never rests on this: every write carries the resourceVersion it was
// decided on, so two replicas, or the controller, still serialize through conflicts.
type statusBatcher[T statusObject[T], Req, Res any] struct {
	kind string // in errors and logs
	// get reads the object from the server (after a conflict, the status the other
	// writer left); update writes its status with the resourceVersion it carries.
	get    func(ctx context.Context, namespace, name string) (T, error)
	update func(ctx context.Context, obj T) (T, error)
	// decide decides batch, in order, on work (a copy it modifies) and reports whether
	// work must be written.
	decide func(work T, batch []Req, now metav1.Time) ([]Res, bool)
	now    func() time.Time

	mu    sync.Mutex
	slots map[string]*batchSlot[T, Req, Res]
}

// batchSlot is one object's queue.
type batchSlot[T statusObject[T], Req, Res any] struct {
	mu        sync.Mutex
	latest    T // as this process last wrote or read it, when hasLatest
	hasLatest bool
	pending   []*batchRequest[T, Req, Res]
	writing   bool
}

type batchRequest[T statusObject[T], Req, Res any] struct {
	obj  T // the caller's (cached) copy
	req  Req
	done chan batchResult[Res]
}

type batchResult[Res any] struct {
	res Res
	err error
}

func (b *statusBatcher[T, Req, Res]) slot(obj T) *batchSlot[T, Req, Res] {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.slots == nil {
		b.slots = map[string]*batchSlot[T, Req, Res]{}
	}
	key := obj.GetNamespace() + "/" + obj.GetName()
	s, ok := b.slots[key]
	if !ok {
		s = &batchSlot[T, Req, Res]{}
		b.slots[key] = s
	}
	return s
}

// peek returns a copy of the newest version of obj this process knows: a dry run
// decides on it and writes nothing.
func (b *statusBatcher[T, Req, Res]) peek(obj T) T {
	s := b.slot(obj)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hasLatest {
		return newestOf(s.latest, obj).DeepCopy()
	}
	return obj.DeepCopy()
}

// submit queues req against obj and waits for the batch that decides and records it.
func (b *statusBatcher[T, Req, Res]) submit(ctx context.Context, obj T, req Req) (Res, error) {
	s := b.slot(obj)
	r := &batchRequest[T, Req, Res]{obj: obj, req: req, done: make(chan batchResult[Res], 1)}
	s.mu.Lock()
	s.pending = append(s.pending, r)
	if !s.writing {
		s.writing = true
		// The writer outlives this request if it must: others wait on its batch.
		go b.drain(klog.NewContext(context.Background(), klog.FromContext(ctx)), s)
	}
	s.mu.Unlock()
	select {
	case out := <-r.done:
		return out.res, out.err
	case <-ctx.Done():
		var zero Res
		return zero, ctx.Err()
	}
}

// drain commits the queued requests batch by batch until none is left.
func (b *statusBatcher[T, Req, Res]) drain(ctx context.Context, s *batchSlot[T, Req, Res]) {
	for {
		s.mu.Lock()
		batch := s.pending
		s.pending = nil
		if len(batch) == 0 {
			s.writing = false
			s.mu.Unlock()
			return
		}
		base := batch[0].obj
		if s.hasLatest {
			base = newestOf(s.latest, base)
		}
		for _, r := range batch {
			base = newestOf(base, r.obj)
		}
		s.mu.Unlock()

		written, ok, results, err := b.commit(ctx, base, batch)

		s.mu.Lock()
		s.latest, s.hasLatest = written, ok
		s.mu.Unlock()
		for i, r := range batch {
			r.done <- batchResult[Res]{res: results[i], err: err}
		}
	}
}

// commit decides batch on base and writes the result once; on a conflict it reads the
// object again and decides the whole batch anew. It returns the object as written (ok
// false when unknown), each request's answer, and the error that failed them all.
func (b *statusBatcher[T, Req, Res]) commit(ctx context.Context, base T, batch []*batchRequest[T, Req, Res]) (T, bool, []Res, error) {
	ctx, cancel := context.WithTimeout(ctx, commitTimeout)
	defer cancel()
	logger := klog.FromContext(ctx).WithValues(b.kind, klog.KObj(base))
	reqs := make([]Req, len(batch))
	for i, r := range batch {
		reqs[i] = r.req
	}
	cur := base
	for attempt := 1; ; attempt++ {
		work := cur.DeepCopy()
		results, changed := b.decide(work, reqs, metav1.NewTime(b.now()))
		if !changed {
			return cur, true, results, nil
		}
		written, err := b.update(ctx, work)
		if err == nil {
			logger.V(2).Info("Recorded a batch in status", "requests", len(batch), "attempt", attempt)
			return written, true, results, nil
		}
		if apierrors.IsConflict(err) && attempt < commitAttempts {
			if cur, err = b.get(ctx, base.GetNamespace(), base.GetName()); err == nil {
				continue
			}
		}
		var zero T
		return zero, false, make([]Res, len(batch)), fmt.Errorf("writing the status of %s %s/%s: %w", b.kind, base.GetNamespace(), base.GetName(), err)
	}
}

// newestOf is the copy of an object with the higher resourceVersion (b when a is
// another object). resourceVersions are opaque to clients, but this server's are etcd
// revisions; a wrong guess costs one conflict, never a wrong decision.
func newestOf[T statusObject[T]](a, b T) T {
	if a.GetUID() != b.GetUID() {
		return b
	}
	x, errA := strconv.ParseUint(a.GetResourceVersion(), 10, 64)
	y, errB := strconv.ParseUint(b.GetResourceVersion(), 10, 64)
	if errA == nil && errB == nil && x > y {
		return a
	}
	return b
}
