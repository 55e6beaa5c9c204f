package podwebhook

import (
	"context"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/deletionprotection"
	"github.com/kruise-native/kruise-native/pkg/podbudget"
)

// Config is what kruise-apiserver's handlers read and how they behave.
type Config struct {
	// SidecarSets lists the SidecarSets (from an informer cache).
	SidecarSets func() ([]*v1beta1.SidecarSet, error)
	// NamespaceLabels reads namespace labels (from an informer cache, falling back to
	// kube-apiserver for a namespace created a moment ago).
	NamespaceLabels func(ctx context.Context, namespace string) (labels.Set, error)
	// PinnedRevision returns the ControllerRevision a SidecarSet's
	// injectionStrategy.revision names.
	PinnedRevision func(ctx context.Context, ss *apps.SidecarSet) (*appsv1.ControllerRevision, error)
	// Synced reports whether both caches have synced; until then SidecarSet injection
	// answers 503 and kube-apiserver applies the configured failurePolicy.
	Synced func() bool
	// ReadinessGate gives pods of Kruise workloads the KruisePodReady gate. It costs
	// their controller one pod status write per new pod (the condition must be set
	// True), so it is off unless asked for.
	ReadinessGate bool
	// Budgets, if set, turns on the PodUnavailableBudget guard of pod deletions,
	// evictions and in-place updates (BudgetsFromInformers).
	Budgets BudgetStore
	// UnguardedOperations are the disruptions the guard lets through whatever the
	// budgets say (feature gates PodUnavailableBudgetDeleteGate, for deletions and
	// evictions, and PodUnavailableBudgetUpdateGate turned off).
	UnguardedOperations []podbudget.Operation
	// Spreads, if set, turns on WorkloadSpread: new pods of a spread's target are placed
	// in its subsets, and placed pods being deleted free their slot (SpreadsFromInformers).
	Spreads SpreadStore
	// PodStates, if set, turns on PersistentPodState: a StatefulSet pod created again
	// under a recorded name gets node affinity to its recorded topology.
	PodStates PodStateStore
	// Now is the clock of the injection timestamps and of the budgets' records.
	Now func() time.Time
	// DeletionChildren counts the children of a protected object being deleted
	// (deletionprotection.Lookup.ChildrenOf), for the deletion-protection webhook.
	DeletionChildren func(ctx context.Context, gr schema.GroupResource, obj *unstructured.Unstructured) deletionprotection.ChildrenFunc
}

// podCreates is the rule of the handlers that complete a new pod.
var podCreates = []Rule{{Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create}, Resource: Pods}}

// Handlers is kruise-apiserver's chain, in the order it runs. Launch priority comes
// after injection, as the injected sidecars get their barrier too (and may carry a
// priority of their own). Deletion protection is a webhook of its own
// (DeletionWebhook): it never sees pods.
func Handlers(cfg Config) []Handler {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	out := []Handler{sidecarSetInjection(cfg), launchPriority()}
	if cfg.ReadinessGate {
		out = append(out, readinessGate())
	}
	if cfg.PodStates != nil {
		// Before placement: a spread's required term is ANDed into the recorded one.
		out = append(out, persistentPodStateHandler(cfg.PodStates))
	}
	var spreads []Handler
	if cfg.Spreads != nil {
		spreads = workloadSpreadHandlers(cfg.Spreads, cfg.Now, spreadReadyWait)
		// Placement last among the mutations: the subset's patch and node terms apply
		// to the pod as the other handlers completed it.
		out = append(out, spreads[0])
	}
	if cfg.Budgets != nil {
		out = append(out, budgetGuard(cfg.Budgets, cfg.Now, cfg.UnguardedOperations...))
	}
	if cfg.Spreads != nil {
		// The release after the budget guard: a deletion the guard refuses frees nothing.
		out = append(out, spreads[1])
	}
	out = append(out, deletionProtectionHandler(cfg.DeletionChildren))
	return out
}

// EveryHandler is the chain with every optional handler on: the webhook
// configurations are generated from it, so they cover whatever flags the server runs
// with (a request no running handler matches is let through unchanged).
func EveryHandler() []Handler {
	return Handlers(Config{ReadinessGate: true, Budgets: noBudgets{}, Spreads: noSpreads{}, PodStates: noPodStates{}})
}

// noPodStates stands in for a PodStateStore where only the handlers' rules matter.
type noPodStates struct{ PodStateStore }

func (noPodStates) Synced() bool { return true }

// noSpreads stands in for a SpreadStore where only the handlers' rules matter.
type noSpreads struct{ SpreadStore }

func (noSpreads) Synced() bool { return true }

// noBudgets stands in for a BudgetStore where only the handlers' rules matter.
type noBudgets struct{ BudgetStore }

func (noBudgets) Synced() bool { return true }
