package podwebhook

import (
	"context"
	"fmt"
	"strconv"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	admissionlisters "k8s.io/client-go/listers/admissionregistration/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"
)

// CallScopeKeeper keeps the mutating Pod webhook's registration narrowed to the creates
// some handler may change (CallClauses), as a match condition kube-apiserver evaluates
// before calling: most pod creates in a cluster match no SidecarSet, spread or launch
// priority, and each call costs kube-apiserver far more than the condition (see
// README, "Webhooks: transport and cost").
//
// Two paths write it:
//   - Widen, from the admission of a SidecarSet or WorkloadSpread, before it is stored:
//     its clause is added, so the pods created after the write returns are sent to the
//     webhook (as soon as kube-apiserver's own informer has the registration: the
//     window OpenKruise has between a SidecarSet's creation and its webhook's cache).
//   - Run, from the caches: the condition is rebuilt from what exists, removing the
//     clauses of deleted or changed objects. Within callScopeGrace of a widening it
//     only adds, as this replica's cache may not hold yet what another one admitted.
//
// Without the condition (a registration applied from the manifests, or the keeper
// unable to write) kube-apiserver calls the webhook for every create, as before.
type CallScopeKeeper struct {
	name    string
	kube    kubernetes.Interface
	configs admissionlisters.MutatingWebhookConfigurationLister
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

// NewCallScopeKeeper keeps the registration name (the mutating configuration holding
// the Pod webhook) for handlers; with narrow false it only takes out a condition left
// from before, so every create is sent. It registers its informer on kube (call it
// before the factory starts). informers are the caches the handlers' CallClauses read:
// the keeper waits for them to sync, and rebuilds the condition when one changes.
func NewCallScopeKeeper(name string, narrow bool, kubeClient kubernetes.Interface, kube kubeinformers.SharedInformerFactory,
	handlers []Handler, informers ...cache.SharedInformer) (*CallScopeKeeper, error) {
	configs := kube.Admissionregistration().V1().MutatingWebhookConfigurations()
	clauses := func() (CallClauses, bool, error) { return mutatingCallClauses(handlers) }
	if !narrow {
		clauses = func() (CallClauses, bool, error) { return nil, false, nil }
	}
	k := &CallScopeKeeper{
		name:    name,
		kube:    kubeClient,
		configs: configs.Lister(),
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
	for _, inf := range append([]cache.SharedInformer{configs.Informer()}, informers...) {
		if _, err := inf.AddEventHandler(onChange); err != nil {
			return nil, fmt.Errorf("watching for the Pod webhook's call scope: %w", err)
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
	logger := klog.FromContext(ctx).WithValues("configuration", k.name)
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
	c, err := k.configs.Get(k.name)
	if apierrors.IsNotFound(err) {
		return nil // not registered: nothing is called, nothing to narrow
	}
	if err != nil {
		return err
	}
	i := mutatingPodHook(c)
	if i < 0 {
		return nil
	}
	desired, ok, err := k.clauses()
	if err != nil {
		return err
	}
	cur := readCallScope(c, i)
	next := settled(cur, desired, ok, k.now(), k.grace)
	if next.equal(cur) {
		return nil
	}
	patch, err := callScopePatch(c, i, next)
	if err != nil {
		return err
	}
	if _, err := k.kube.AdmissionregistrationV1().MutatingWebhookConfigurations().Patch(ctx, k.name, types.JSONPatchType,
		patch, metav1.PatchOptions{}); err != nil {
		if apierrors.IsConflict(err) {
			k.poke() // the cache is behind: again once it has the newer one
			return nil
		}
		return fmt.Errorf("updating %s: %w", k.name, err)
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
	mwcs := k.kube.AdmissionregistrationV1().MutatingWebhookConfigurations()
	var written *admissionregistrationv1.MutatingWebhookConfiguration
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		c, err := mwcs.Get(ctx, k.name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		i := mutatingPodHook(c)
		if i < 0 {
			return nil
		}
		next, changed := widened(readCallScope(c, i), key, expr, k.now())
		if !changed {
			return nil
		}
		patch, err := callScopePatch(c, i, next)
		if err != nil {
			return err
		}
		out, err := mwcs.Patch(ctx, k.name, types.JSONPatchType, patch, metav1.PatchOptions{})
		if err == nil {
			written = out
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("widening the Pod webhook's registration %s for %s: %w", k.name, key, err)
	}
	if written != nil {
		// kube-apiserver's admission reads the registration from its watch cache, as our
		// informer does: seeing it here means that one has it too, most likely.
		k.waitSeen(ctx, written.ResourceVersion)
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
		c, err := k.configs.Get(k.name)
		if err != nil {
			return false, nil
		}
		have, err := strconv.ParseUint(c.ResourceVersion, 10, 64)
		return err == nil && have >= want, nil
	})
}
