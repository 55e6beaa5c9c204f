package podwebhook

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/podbudget"
)

const (
	// spendAttempts bounds the read-decide-write rounds of one batch. Spends of one
	// budget are batched in this process, so a conflict means the controller or
	// another kruise-apiserver replica wrote in between.
	spendAttempts = 10
	// commitTimeout bounds one batch's writes: past the webhook's timeoutSeconds
	// nobody waits for the answer any more.
	commitTimeout = 10 * time.Second
)

// spender spends budgets for the guard. Concurrent disruptions of pods under one
// budget would all read the same status, and all but one write would conflict,
// round after round. Instead the requests that arrive while a write of the budget is
// in flight queue up, and the next write decides them all in arrival order and
// records them in one status update (group commit), on the status the previous write
// left (kept in memory, so no read either). Correctness never rests on this: every
// write carries the resourceVersion it was decided on, so two replicas, or the
// controller, still serialize through conflicts.
type spender struct {
	store BudgetStore
	now   func() time.Time

	mu      sync.Mutex
	budgets map[string]*budgetSlot
}

func newSpender(store BudgetStore, now func() time.Time) *spender {
	return &spender{store: store, now: now, budgets: map[string]*budgetSlot{}}
}

// budgetSlot is one budget's queue.
type budgetSlot struct {
	mu      sync.Mutex
	latest  *policyv1beta1.PodUnavailableBudget // as this process last wrote or read it
	pending []*spendRequest
	writing bool
}

type spendRequest struct {
	pub  *policyv1beta1.PodUnavailableBudget // the caller's (cached) copy
	pod  string
	op   podbudget.Operation
	done chan error
}

func (s *spender) slot(pub *policyv1beta1.PodUnavailableBudget) *budgetSlot {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := pub.Namespace + "/" + pub.Name
	b, ok := s.budgets[key]
	if !ok {
		b = &budgetSlot{}
		s.budgets[key] = b
	}
	return b
}

// spend takes one slot of pub for the disruption of pod, or refuses with 429. A dry
// run decides on the newest status known and spends nothing.
func (s *spender) spend(ctx context.Context, pub *policyv1beta1.PodUnavailableBudget, pod string,
	op podbudget.Operation, dryRun bool) error {
	slot := s.slot(pub)
	if dryRun {
		slot.mu.Lock()
		cur := newest(slot.latest, pub).DeepCopy()
		slot.mu.Unlock()
		if d, msg := podbudget.Decide(cur, pod, op, metav1.NewTime(s.now())); d == podbudget.Refuse {
			return DenyWith(http.StatusTooManyRequests, metav1.StatusReasonTooManyRequests, msg)
		}
		return nil
	}
	req := &spendRequest{pub: pub, pod: pod, op: op, done: make(chan error, 1)}
	slot.mu.Lock()
	slot.pending = append(slot.pending, req)
	if !slot.writing {
		slot.writing = true
		// The writer outlives this request if it must: others wait on its batch.
		go s.drain(klog.NewContext(context.Background(), klog.FromContext(ctx)), slot)
	}
	slot.mu.Unlock()
	select {
	case err := <-req.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// drain commits the queued requests batch by batch until none is left.
func (s *spender) drain(ctx context.Context, slot *budgetSlot) {
	for {
		slot.mu.Lock()
		batch := slot.pending
		slot.pending = nil
		if len(batch) == 0 {
			slot.writing = false
			slot.mu.Unlock()
			return
		}
		base := slot.latest
		for _, r := range batch {
			base = newest(base, r.pub)
		}
		slot.mu.Unlock()

		written, results := s.commit(ctx, base, batch)

		slot.mu.Lock()
		slot.latest = written
		slot.mu.Unlock()
		for i, r := range batch {
			r.done <- results[i]
		}
	}
}

// commit decides batch on base in order and writes the slots spent, once; on a
// conflict it reads the budget again and decides the whole batch anew. It returns the
// budget as written (nil when unknown) and each request's answer.
func (s *spender) commit(ctx context.Context, base *policyv1beta1.PodUnavailableBudget, batch []*spendRequest) (*policyv1beta1.PodUnavailableBudget, []error) {
	ctx, cancel := context.WithTimeout(ctx, commitTimeout)
	defer cancel()
	logger := klog.FromContext(ctx).WithValues("podunavailablebudget", klog.KObj(base))
	results := make([]error, len(batch))
	cur := base
	for attempt := 1; ; attempt++ {
		work := cur.DeepCopy()
		now := metav1.NewTime(s.now())
		spent := 0
		for i, r := range batch {
			switch d, msg := podbudget.Decide(work, r.pod, r.op, now); d {
			case podbudget.Refuse:
				results[i] = DenyWith(http.StatusTooManyRequests, metav1.StatusReasonTooManyRequests, msg)
			case podbudget.Spend:
				spent++
				results[i] = nil
			default:
				results[i] = nil
			}
		}
		if spent == 0 {
			return cur, results
		}
		written, err := s.store.UpdateStatus(ctx, work)
		if err == nil {
			logger.V(2).Info("Spent slots", "requests", len(batch), "spent", spent, "unavailableAllowed", written.Status.UnavailableAllowed)
			return written, results
		}
		if apierrors.IsConflict(err) && attempt < spendAttempts {
			if cur, err = s.store.Get(ctx, base.Namespace, base.Name); err == nil {
				continue
			}
		}
		err = fmt.Errorf("spending PodUnavailableBudget %s/%s: %w", base.Namespace, base.Name, err)
		for i := range results {
			results[i] = err
		}
		return nil, results
	}
}

// newest is the copy of a budget with the higher resourceVersion (b when a is nil or
// another object). resourceVersions are opaque to clients, but this server's are etcd
// revisions; a wrong guess costs one conflict, never a wrong decision.
func newest(a, b *policyv1beta1.PodUnavailableBudget) *policyv1beta1.PodUnavailableBudget {
	if a == nil || a.UID != b.UID {
		return b
	}
	x, errA := strconv.ParseUint(a.ResourceVersion, 10, 64)
	y, errB := strconv.ParseUint(b.ResourceVersion, 10, 64)
	if errA == nil && errB == nil && x > y {
		return a
	}
	return b
}
