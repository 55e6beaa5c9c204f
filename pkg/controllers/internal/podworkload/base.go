package podworkload

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// API is what a Base needs of one kind's API server side: its status subresource, and
// an uncached read.
type API[T Object, S any] interface {
	StatusAPI[T, S]
	// Get reads the workload from the API server, not the cache: adoption checks with
	// it that the workload still is the one whose pods it adopts.
	Get(ctx context.Context, namespace, name string) (T, error)
}

// Wiring is what differs in how the controllers of pod workloads are wired.
type Wiring struct {
	// Config is the Control's (its Fresh read is API.Get). Its Name, without the
	// "-controller" suffix, names the work queue.
	Config
	// Workloads is the informer of the workload kind; Pods carries podindex's indexes;
	// Revisions is nil for a workload that keeps none (Workload.NoRevisions).
	Workloads, Pods, Revisions cache.SharedIndexInformer
	// Synced are the other informers the sync reads.
	Synced []cache.InformerSynced
	// Matching names the workloads that may adopt an orphan pod (see
	// ownedpods.Handler.Matching).
	Matching func(*corev1.Pod) []string
	// PodEventDelay, when positive, makes a pod event sync its workload that much
	// later, so that the events of a wave of pods meanwhile join one sync.
	PodEventDelay time.Duration
}

// Base is what every pod workload controller is built on: the work loop, the pod
// Control and the StatusWriter, wired to the informers the same way for every kind.
// Embedded in a controller, it is its manager.Controller but for the sync.
type Base[T Object, S any] struct {
	Pods   *Control
	Status *StatusWriter[T, S]
	Loop   *reconcile.Loop

	workloads cache.Indexer
}

// NewBase wires a controller whose sync is sync: its workload's events queue it (a
// deleted workload's expectations are dropped), and its pods' events as
// ownedpods.Handler routes them.
func NewBase[T Object, S any](client kubernetes.Interface, recorder record.EventRecorder, api API[T, S], w Wiring,
	sync reconcile.SyncFunc) (*Base[T, S], error) {
	cfg := w.Config
	cfg.Fresh = func(ctx context.Context, ns, name string) (metav1.Object, error) { return api.Get(ctx, ns, name) }
	pods, err := New(client, recorder, w.Pods, w.Revisions, cfg)
	if err != nil {
		return nil, err
	}
	b := &Base[T, S]{Pods: pods, Status: NewStatusWriter(api), workloads: w.Workloads.GetIndexer()}
	synced := []cache.InformerSynced{w.Workloads.HasSynced, w.Pods.HasSynced}
	if w.Revisions != nil {
		synced = append(synced, w.Revisions.HasSynced)
	}
	b.Loop = reconcile.NewLoop(strings.TrimSuffix(cfg.Name, "-controller"), sync, append(synced, w.Synced...)...)
	if _, err := w.Workloads.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    b.Loop.Enqueue,
		UpdateFunc: b.Loop.EnqueueUpdate,
		DeleteFunc: b.onDelete,
	}); err != nil {
		return nil, fmt.Errorf("watching %s: %w", cfg.Kind.Kind, err)
	}
	enqueue := b.Loop.Add
	if d := w.PodEventDelay; d > 0 {
		enqueue = func(key string) { b.Loop.AddAfter(key, d) }
	}
	if _, err := w.Pods.AddEventHandler(pods.PodHandler(enqueue, w.Matching)); err != nil {
		return nil, fmt.Errorf("watching pods: %w", err)
	}
	return b, nil
}

// Get reads the workload at key from the cache and reports whether there is anything
// to sync: not when it is gone (its expectations are dropped) or being deleted (the
// garbage collector deletes its pods), nor while the cache does not show the last
// status written (StatusWriter.Current).
func (b *Base[T, S]) Get(ctx context.Context, key string) (T, bool, error) {
	var zero T
	obj, exists, err := b.workloads.GetByKey(key)
	if err != nil {
		return zero, false, err
	}
	if !exists {
		b.Pods.Forget(key)
		return zero, false, nil
	}
	w, ok := obj.(T)
	if !ok {
		return zero, false, fmt.Errorf("%s: the informer holds a %T", key, obj)
	}
	if w.GetDeletionTimestamp() != nil || !b.Status.Current(ctx, w) {
		return zero, false, nil
	}
	return w, true, nil
}

func (b *Base[T, S]) onDelete(obj interface{}) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	if w, ok := obj.(T); ok {
		b.Pods.Forget(key(w))
		b.Status.Forget(w)
	}
}

// Name implements manager.Controller: the controller's name.
func (b *Base[T, S]) Name() string { return b.Pods.Name }

// HasSynced implements manager.Controller.
func (b *Base[T, S]) HasSynced() bool { return b.Loop.HasSynced() }

// Run implements manager.Controller: it processes the queue until ctx ends.
func (b *Base[T, S]) Run(ctx context.Context, workers int) { b.Loop.Run(ctx, workers) }
