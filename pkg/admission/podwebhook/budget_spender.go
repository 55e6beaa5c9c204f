package podwebhook

import (
	"context"
	"net/http"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/podbudget"
)

// spender spends budgets for the guard, one status write per batch of concurrent
// disruptions of one budget (statusBatcher).
type spender struct {
	store BudgetStore
	now   func() time.Time
	// unguarded are the operations let through unread (feature gates off).
	unguarded []podbudget.Operation
	batcher   *statusBatcher[*policyv1beta1.PodUnavailableBudget, spendRequest, error]
}

type spendRequest struct {
	pod string
	op  podbudget.Operation
}

func newSpender(store BudgetStore, now func() time.Time) *spender {
	return &spender{store: store, now: now, batcher: &statusBatcher[*policyv1beta1.PodUnavailableBudget, spendRequest, error]{
		kind: "podunavailablebudget", get: store.Get, update: store.UpdateStatus, now: now,
		decide: decideSpends,
	}}
}

// decideSpends decides a batch of disruptions in order on pub: each takes a slot or is
// refused with 429. pub is written when a slot was spent.
func decideSpends(pub *policyv1beta1.PodUnavailableBudget, batch []spendRequest, now metav1.Time) ([]error, bool) {
	results := make([]error, len(batch))
	spent := false
	for i, r := range batch {
		switch d, msg := podbudget.Decide(pub, r.pod, r.op, now); d {
		case podbudget.Refuse:
			results[i] = DenyWith(http.StatusTooManyRequests, metav1.StatusReasonTooManyRequests, msg)
		case podbudget.Spend:
			spent = true
		}
	}
	return results, spent
}

// spend takes one slot of pub for the disruption of pod, or refuses with 429. A dry
// run decides on the newest status known and spends nothing.
func (s *spender) spend(ctx context.Context, pub *policyv1beta1.PodUnavailableBudget, pod string,
	op podbudget.Operation, dryRun bool) error {
	req := spendRequest{pod: pod, op: op}
	if dryRun {
		results, _ := decideSpends(s.batcher.peek(pub), []spendRequest{req}, metav1.NewTime(s.now()))
		return results[0]
	}
	refusal, err := s.batcher.submit(ctx, pub, req)
	if err != nil {
		return err
	}
	return refusal
}
