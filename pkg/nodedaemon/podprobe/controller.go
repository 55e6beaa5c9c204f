package podprobe

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	appsinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions/apps/v1alpha1"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/handler"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/metrics"
)

// retryWrite is how soon a status write that failed is tried again.
const retryWrite = 500 * time.Millisecond

// Controller runs the probes of one node's NodePodProbe.
type Controller struct {
	nodeName string
	kruise   kruiseclient.Interface
	probes   kruiselisters.NodePodProbeLister
	pods     corelisters.PodLister
	runner   *handler.Runner
	synced   []cache.InformerSynced
	// nowTime is the time of a transition, in the precision the API stores (seconds):
	// a status compared with the stored one must not differ by nanoseconds, or every
	// write would look unwritten and be written again.
	nowTime func() metav1.Time

	changed chan struct{} // the NodePodProbe changed: start and stop workers
	dirty   chan struct{} // a result changed: write the status

	mu      sync.Mutex
	results map[key]result
	seeded  bool
	// latest is the NodePodProbe our last status write returned, until the informer
	// has it (the base of the next write, so a stale cache does not make us write
	// the same status twice).
	latest *v1alpha1.NodePodProbe

	workers map[key]*worker // owned by Run's goroutine
}

// New returns the controller of nodeName's NodePodProbe. The informers must see this
// node's NodePodProbe and pods (field selectors); runner runs the probes.
func New(nodeName string, kruise kruiseclient.Interface, npps appsinformers.NodePodProbeInformer,
	pods coreinformers.PodInformer, runner *handler.Runner) (*Controller, error) {
	c := &Controller{
		nodeName: nodeName,
		kruise:   kruise,
		probes:   npps.Lister(),
		pods:     pods.Lister(),
		runner:   runner,
		synced:   []cache.InformerSynced{npps.Informer().HasSynced, pods.Informer().HasSynced},
		nowTime:  func() metav1.Time { return metav1.Now().Rfc3339Copy() },
		changed:  make(chan struct{}, 1),
		dirty:    make(chan struct{}, 1),
		results:  map[key]result{},
		workers:  map[key]*worker{},
	}
	signal := func(interface{}) { notify(c.changed) }
	if _, err := npps.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: signal, UpdateFunc: func(_, o interface{}) { signal(o) }, DeleteFunc: signal,
	}); err != nil {
		return nil, fmt.Errorf("podprobe: %w", err)
	}
	return c, nil
}

func notify(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// HasSynced reports whether the caches have synced.
func (c *Controller) HasSynced() bool {
	for _, s := range c.synced {
		if !s() {
			return false
		}
	}
	return true
}

// Run runs the workers and writes the status until ctx ends.
func (c *Controller) Run(ctx context.Context) error {
	logger := klog.FromContext(ctx).WithName("podprobe")
	ctx = klog.NewContext(ctx, logger)
	if !cache.WaitForCacheSync(ctx.Done(), c.synced...) {
		return fmt.Errorf("podprobe: caches did not sync: %w", context.Cause(ctx))
	}
	defer func() {
		for k, w := range c.workers {
			w.cancel()
			delete(c.workers, k)
		}
	}()
	notify(c.changed)
	var retry <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-c.changed:
			c.reconcileWorkers(ctx)
			notify(c.dirty) // a pod may have left the spec
		case <-c.dirty:
			if err := c.writeStatus(ctx); err != nil {
				logger.Info("Writing the NodePodProbe status failed; retrying", "err", err)
				retry = time.After(retryWrite)
			}
		case <-retry:
			retry = nil
			notify(c.dirty)
		}
	}
}

// report records a probe's new state.
func (c *Controller) report(k key, r result) {
	c.mu.Lock()
	c.results[k] = r
	c.mu.Unlock()
	notify(c.dirty)
}

// reconcileWorkers runs one worker per probe of the spec: new probes start, probes
// gone or changed stop (a changed one starts again, from its reported state).
func (c *Controller) reconcileWorkers(ctx context.Context) {
	npp, err := c.probes.Get(c.nodeName)
	if err != nil && !apierrors.IsNotFound(err) {
		return
	}
	want := map[key]*worker{}
	if npp != nil {
		c.mu.Lock()
		if !c.seeded {
			c.results, c.seeded = seed(npp), true
		}
		c.mu.Unlock()
		for _, pp := range npp.Spec.PodProbes {
			for _, p := range pp.Probes {
				k := key{pp.UID, p.Name}
				want[k] = &worker{c: c, key: k, pod: pp, probe: p}
			}
		}
	}
	for k, w := range c.workers {
		if nw, ok := want[k]; ok && apiequality.Semantic.DeepEqual(nw.probe, w.probe) && nw.pod.IP == w.pod.IP {
			continue
		}
		w.cancel()
		delete(c.workers, k)
		if _, ok := want[k]; !ok {
			c.mu.Lock()
			delete(c.results, k)
			c.mu.Unlock()
		}
	}
	for k, w := range want {
		if _, running := c.workers[k]; running {
			continue
		}
		c.mu.Lock()
		current := c.results[k].state
		c.mu.Unlock()
		wctx, cancel := context.WithCancel(ctx)
		w.cancel = cancel
		c.workers[k] = w
		go w.run(wctx, current)
	}
}

// writeStatus writes the status the results make, if it differs from the stored one.
func (c *Controller) writeStatus(ctx context.Context) error {
	npp, err := c.probes.Get(c.nodeName)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	c.mu.Lock()
	if c.latest != nil && newer(c.latest, npp) {
		npp = c.latest
	} else {
		c.latest = nil
	}
	want := statusOf(npp.Spec, c.results)
	c.mu.Unlock()
	if apiequality.Semantic.DeepEqual(want, npp.Status) {
		return nil
	}
	upd := npp.DeepCopy()
	upd.Status = want
	written, err := c.kruise.AppsV1alpha1().NodePodProbes().UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	switch {
	case apierrors.IsConflict(err):
		metrics.ProbeStatusWrites.WithLabelValues("refused").Inc()
	case err != nil:
		metrics.ProbeStatusWrites.WithLabelValues("failed").Inc()
	default:
		metrics.ProbeStatusWrites.WithLabelValues("written").Inc()
	}
	if err != nil {
		return fmt.Errorf("updating status of NodePodProbe %s: %w", c.nodeName, err)
	}
	klog.FromContext(ctx).V(2).Info("Wrote probe results", "nodePodProbe", c.nodeName, "pods", len(want.PodProbeStatuses))
	c.mu.Lock()
	c.latest = written
	c.mu.Unlock()
	return nil
}

// newer reports whether a's resourceVersion is later than b's.
func newer(a, b *v1alpha1.NodePodProbe) bool {
	ra, err1 := strconv.ParseUint(a.ResourceVersion, 10, 64)
	rb, err2 := strconv.ParseUint(b.ResourceVersion, 10, 64)
	return err1 == nil && err2 == nil && ra > rb
}
