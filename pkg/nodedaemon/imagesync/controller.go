package imagesync

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	appsinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions/apps/v1beta1"
	appslisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/metrics"
)

const (
	// DefaultCoalesceDelay is how long status changes of the puller are gathered
	// before one status write: a burst of pulls finishing together (a NodeImage of
	// many images already present) costs one write, not one per tag.
	DefaultCoalesceDelay = 200 * time.Millisecond
	// maxConflictRetries bounds status writes that lose to another writer in a row.
	maxConflictRetries = 5
)

// Options tune a Controller; zero values take defaults.
type Options struct {
	// Puller configures the pull engine (workers = concurrent pulls).
	Puller imagepuller.Options
	// CoalesceDelay: see DefaultCoalesceDelay.
	CoalesceDelay time.Duration
	// Recorder, when set, records events on the NodeImage when a pull fails.
	Recorder record.EventRecorder
	// Clock stamps firstSyncStatus; tests pass a fake.
	Clock clock.PassiveClock
}

// Controller keeps the images of one node in line with its NodeImage.
type Controller struct {
	node    string
	client  kruiseclient.Interface
	secrets PullSecretLister
	images  runtimeapi.ImageServiceClient
	lister  appslisters.NodeImageLister
	synced  cache.InformerSynced
	queue   workqueue.TypedRateLimitingInterface[string]
	opts    Options

	// Used by the single worker only.
	puller  *imagepuller.Manager
	notes   map[string]note  // by task key: secret problems of the running task
	counted map[string]int64 // by task key: the version whose end was counted
}

type note struct {
	version int64
	text    string
}

// New returns a controller for node's NodeImage. informer must be scoped to that one
// object (field selector metadata.name=<node>); the daemon never watches other nodes'.
func New(node string, client kruiseclient.Interface, informer appsinformers.NodeImageInformer,
	secrets PullSecretLister, images runtimeapi.ImageServiceClient, opts Options) (*Controller, error) {
	if opts.CoalesceDelay <= 0 {
		opts.CoalesceDelay = DefaultCoalesceDelay
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	c := &Controller{
		node:    node,
		client:  client,
		secrets: secrets,
		images:  images,
		lister:  informer.Lister(),
		synced:  informer.Informer().HasSynced,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "nodeimage"}),
		opts:    opts,
		notes:   map[string]note{},
		counted: map[string]int64{},
	}
	enqueue := func(interface{}) { c.queue.Add(c.node) }
	if _, err := informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj interface{}) { enqueue(obj) },
		DeleteFunc: enqueue,
	}); err != nil {
		return nil, fmt.Errorf("imagesync: add NodeImage handler: %w", err)
	}
	return c, nil
}

// HasSynced reports whether the NodeImage informer has synced.
func (c *Controller) HasSynced() bool { return c.synced() }

// Run pulls and reports until ctx ends, then cancels the pulls in flight (a restarted
// daemon pulls them again: their stored status is not finished).
func (c *Controller) Run(ctx context.Context) error {
	logger := klog.FromContext(ctx).WithValues("node", c.node)
	ctx = klog.NewContext(ctx, logger)
	defer c.queue.ShutDown()
	puller, err := imagepuller.NewManager(ctx, c.images, c.opts.Puller, func(string) {
		// Only schedule: several changes within the delay become one sync.
		c.queue.AddAfter(c.node, c.opts.CoalesceDelay)
	})
	if err != nil {
		return fmt.Errorf("imagesync: %w", err)
	}
	c.puller = puller
	defer puller.Stop()
	if !cache.WaitForCacheSync(ctx.Done(), c.synced) {
		return fmt.Errorf("imagesync: NodeImage cache of %s did not sync: %w", c.node, context.Cause(ctx))
	}
	logger.Info("Image sync started")
	go func() {
		<-ctx.Done()
		c.queue.ShutDown()
	}()
	c.queue.Add(c.node)
	for c.processNext(ctx) {
	}
	logger.Info("Image sync stopped")
	return nil
}

func (c *Controller) processNext(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx); err != nil {
		if ctx.Err() == nil {
			klog.FromContext(ctx).Error(err, "NodeImage sync failed, will retry")
		}
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// sync drives the puller to the NodeImage and writes the status if it changed. A write
// that conflicts is computed again on the object as it is now.
func (c *Controller) sync(ctx context.Context) error {
	ni, err := c.lister.Get(c.node)
	if apierrors.IsNotFound(err) {
		// No NodeImage (yet, or any more): nothing may be pulled.
		c.puller.Sync(nil)
		clear(c.notes)
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading NodeImage %s from cache: %w", c.node, err)
	}
	for try := 1; ; try++ {
		err := c.syncObject(ctx, ni)
		if !apierrors.IsConflict(err) || try == maxConflictRetries {
			return err
		}
		// Someone else wrote (the controller changed the spec, or an older write of
		// ours arrived late): start again from the stored object.
		fresh, gerr := c.client.AppsV1beta1().NodeImages().Get(ctx, c.node, metav1.GetOptions{})
		if apierrors.IsNotFound(gerr) {
			return nil // deleted meanwhile: the informer's delete event syncs again
		}
		if gerr != nil {
			return errors.Join(err, fmt.Errorf("reading NodeImage %s after a conflict: %w", c.node, gerr))
		}
		ni = fresh
	}
}

func (c *Controller) syncObject(ctx context.Context, ni *v1beta1.NodeImage) error {
	wants := Wanted(&ni.Spec)
	running := c.puller.Statuses()
	tasks := map[string]imagepuller.Task{}
	started := false
	secrets := secretsOfPass(c.secrets)
	for _, w := range Plan(wants, &ni.Status, running) {
		if r, ok := running[w.Key]; ok && r.Version == w.Tag.Version {
			// Same version: the puller keeps the task it has and ignores this one,
			// so its secrets need not be read again.
			tasks[w.Key] = TaskFor(w, nil)
			continue
		}
		auths, text, err := authsFor(ctx, secrets, w)
		if err != nil {
			return err
		}
		c.notes[w.Key] = note{version: w.Tag.Version, text: text}
		tasks[w.Key] = TaskFor(w, auths)
		started = true
	}
	c.puller.Sync(tasks)
	if started {
		// New pulls report within moments (an image already present, a fast pull,
		// a registry that refuses): let them, and write once, rather than a status
		// of Waiting tags now and the results right after.
		c.queue.AddAfter(c.node, c.opts.CoalesceDelay)
		return nil
	}
	running = c.puller.Statuses()

	notes := map[string]string{}
	for key, n := range c.notes {
		if _, ok := tasks[key]; !ok {
			delete(c.notes, key)
			continue
		}
		if r, ok := running[key]; ok && r.Version == n.version && n.text != "" {
			notes[key] = n.text
		}
	}
	c.countFinished(ni, running)

	status := BuildStatus(wants, &ni.Status, running, notes, c.opts.Clock.Now())
	if apiequality.Semantic.DeepEqual(status, ni.Status) {
		return nil
	}
	updated := ni.DeepCopy()
	updated.Status = status
	if _, err := c.client.AppsV1beta1().NodeImages().UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("updating the status of NodeImage %s: %w", c.node, err)
	}
	klog.FromContext(ctx).V(2).Info("Wrote NodeImage status", "desired", status.Desired,
		"pulling", status.Pulling, "succeeded", status.Succeeded, "failed", status.Failed)
	return nil
}

// countFinished counts each pull of this process once when it ends, in the metrics and,
// for failures, as an event on the NodeImage.
func (c *Controller) countFinished(ni *v1beta1.NodeImage, running map[string]imagepuller.Status) {
	for key := range c.counted {
		if _, ok := running[key]; !ok {
			delete(c.counted, key)
		}
	}
	for key, s := range running {
		if !s.Finished() {
			continue
		}
		if v, ok := c.counted[key]; ok && v == s.Version {
			continue
		}
		c.counted[key] = s.Version
		if s.Phase == imagepuller.PhaseSucceeded {
			metrics.ImagePulls.WithLabelValues("succeeded").Inc()
			continue
		}
		metrics.ImagePulls.WithLabelValues("failed").Inc()
		if c.opts.Recorder != nil {
			c.opts.Recorder.Eventf(ni, corev1.EventTypeWarning, "PullImageFailed", "Failed to pull image %s: %s", key, s.Message)
		}
	}
}
