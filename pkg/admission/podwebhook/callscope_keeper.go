package podwebhook

import (
	"context"
	"fmt"
	"strconv"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"
)

// CallScopeKeeper keeps one of the Pod webhook's registrations (mutating or
// validating) narrowed to the requests some handler of its phase may act on
// (CallClauses), as a match condition kube-apiserver evaluates before calling: most pod
// creates in a cluster match no SidecarSet, spread or launch priority, most pod updates
// and deletes are in namespaces without a PodUnavailableBudget or WorkloadSpread, and
// each call costs kube-apiserver far more than the condition (see README, "Webhooks:
// transport and cost").
//
// Two paths write it:
//   - Widen, from the admission of a SidecarSet, WorkloadSpread or
//     PodUnavailableBudget, before it is stored: its clause is added, so the requests
//     made after the write returns are sent to the webhook (as soon as kube-apiserver's
//     own informer has the registration: the window OpenKruise has between a
//     SidecarSet's creation and its webhook's cache).
//   - Run, from the caches: the condition is rebuilt from what exists, removing the
//     clauses of deleted or changed objects. Within callScopeGrace of a widening it
//     only adds, as this replica's cache may not hold yet what another one admitted.
//
// Without the condition (a registration the Registrar has just created, or the keeper
// unable to write) kube-apiserver calls the webhook for every request, as before. The
// Registrar never applies a match condition, so the two never undo each other.
type CallScopeKeeper struct {
	name    string
	phase   Phase
	configs registrations
	synced  []cache.InformerSynced
	clauses func() (CallClauses, bool, error)
	grace   time.Duration
	now     func() time.Time
	changed chan struct{}
}

// callScopeGrace is how long after a widening the caches are not trusted to remove a
// clause: far longer than a watch event takes to reach every replica.
const callScopeGrace = 30 * time.Second

// callScopeResync is how often the keeper rebuilds the condition without an event:
// at least once in each grace period, so a widening is narrowed soon after it ends.
const callScopeResync = callScopeGrace / 2

// NewCallScopeKeeper keeps the Pod webhook of phase in the registration name, for the
// handlers of that phase; with narrow false it only takes out a condition left from
// before, so every request is sent. It registers its informer on kube (call it before
// the factory starts). informers are the caches the handlers' CallClauses read: the
// keeper waits for them to sync, and rebuilds the condition when one changes.
func NewCallScopeKeeper(name string, phase Phase, narrow bool, kubeClient kubernetes.Interface, kube kubeinformers.SharedInformerFactory,
	handlers []Handler, informers ...cache.SharedInformer) (*CallScopeKeeper, error) {
	clauses := func() (CallClauses, bool, error) { return phaseCallClauses(handlers, phase) }
	if !narrow {
		clauses = func() (CallClauses, bool, error) { return nil, false, nil }
	}
	k := &CallScopeKeeper{
		name:    name,
		phase:   phase,
		configs: registrationsOf(phase, kubeClient, kube),
		clauses: clauses,
		grace:   callScopeGrace,
		now:     time.Now,
		changed: make(chan struct{}, 1),
	}
	onChange := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { k.poke() },
		UpdateFunc: func(any, any) { k.poke() },
		DeleteFunc: func(any) { k.poke() },
	}
	for _, inf := range append([]cache.SharedInformer{k.configs.informer}, informers...) {
		if _, err := inf.AddEventHandler(onChange); err != nil {
			return nil, fmt.Errorf("watching for the %s Pod webhook's call scope: %w", phase, err)
		}
		k.synced = append(k.synced, inf.HasSynced)
	}
	return k, nil
}

// poke asks Run for a rebuild, without waiting.
func (k *CallScopeKeeper) poke() {
	select {
	case k.changed <- struct{}{}:
	default:
	}
}

// callScopeSettle coalesces a burst of changes into one rebuild.
const callScopeSettle = 100 * time.Millisecond

// Run rebuilds the condition on every change and every callScopeResync until ctx ends.
func (k *CallScopeKeeper) Run(ctx context.Context) {
	logger := klog.FromContext(ctx).WithValues("configuration", k.name, "phase", k.phase)
	ctx = klog.NewContext(ctx, logger)
	if !cache.WaitForCacheSync(ctx.Done(), k.synced...) {
		return
	}
	tick := time.NewTicker(callScopeResync)
	defer tick.Stop()
	for {
		if err := k.sync(ctx); err != nil {
			logger.Error(err, "Keeping the Pod webhook's call scope")
		}
		select {
		case <-ctx.Done():
			return
		case <-k.changed:
		case <-tick.C:
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(callScopeSettle):
		}
	}
}

// sync writes the scope the caches call for, if it differs from the registration's.
func (k *CallScopeKeeper) sync(ctx context.Context) error {
	v, err := k.configs.cached(k.name)
	if apierrors.IsNotFound(err) {
		return nil // not registered: nothing is called, nothing to narrow
	}
	if err != nil {
		return err
	}
	i := podHook(v, k.phase)
	if i < 0 {
		return nil
	}
	desired, ok, err := k.clauses()
	if err != nil {
		return err
	}
	cur := readCallScope(v, i)
	next := settled(cur, desired, ok, k.now(), k.grace)
	if next.equal(cur) {
		return nil
	}
	patch, err := callScopePatch(v, i, next)
	if err != nil {
		return err
	}
	if _, err := k.configs.patch(ctx, k.name, patch); err != nil {
		if apierrors.IsConflict(err) {
			k.poke() // the cache is behind: again once it has the newer one
			return nil
		}
		return fmt.Errorf("updating the %s registration %s: %w", k.phase, k.name, err)
	}
	klog.FromContext(ctx).V(2).Info("Pod webhook call scope written", "narrowed", next.Narrowed, "clauses", len(next.Clauses))
	return nil
}

// callScopeSeenWait bounds Widen's wait for its own informer to have the registration
// it wrote.
const callScopeSeenWait = 2 * time.Second

// Widen adds the clause key/expr to the registration, if it is narrowed and lacks it,
// and returns once it is written. It reads and writes kube-apiserver directly: the
// caller is admitting an object whose pods must not be skipped.
func (k *CallScopeKeeper) Widen(ctx context.Context, key, expr string) error {
	var written string
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		v, err := k.configs.live(ctx, k.name)
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		i := podHook(v, k.phase)
		if i < 0 {
			return nil
		}
		next, changed := widened(readCallScope(v, i), key, expr, k.now())
		if !changed {
			return nil
		}
		patch, err := callScopePatch(v, i, next)
		if err != nil {
			return err
		}
		out, err := k.configs.patch(ctx, k.name, patch)
		if err == nil {
			written = out.ResourceVersion
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("widening the %s Pod webhook's registration %s for %s: %w", k.phase, k.name, key, err)
	}
	if written != "" {
		// kube-apiserver's admission reads the registration from its watch cache, as our
		// informer does: seeing it here means that one has it too, most likely.
		k.waitSeen(ctx, written)
	}
	return nil
}

// waitSeen waits, at most callScopeSeenWait, for the informer to hold rv or newer.
func (k *CallScopeKeeper) waitSeen(ctx context.Context, rv string) {
	want, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return
	}
	_ = wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, callScopeSeenWait, true, func(context.Context) (bool, error) {
		v, err := k.configs.cached(k.name)
		if err != nil {
			return false, nil
		}
		have, err := strconv.ParseUint(v.ResourceVersion, 10, 64)
		return err == nil && have >= want, nil
	})
}

// CallScopes are the keepers of the Pod webhook's registrations, one per phase.
type CallScopes []*CallScopeKeeper

// Run runs every keeper until ctx ends.
func (s CallScopes) Run(ctx context.Context) {
	for _, k := range s {
		go k.Run(ctx)
	}
}

// Widen adds the clauses of obj, an object being admitted (ObjectCallClauses), to the
// registrations of their phases, and returns once all are written.
func (s CallScopes) Widen(ctx context.Context, obj runtime.Object) error {
	byPhase := ObjectCallClauses(obj)
	for _, k := range s {
		for key, expr := range byPhase[k.phase] {
			if err := k.Widen(ctx, key, expr); err != nil {
				return err
			}
		}
	}
	return nil
}
