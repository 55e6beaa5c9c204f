package containerrecreate

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/reconcile"
	"k8s.io/utils/clock"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	appsinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions/apps/v1alpha1"
	appslisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/metrics"
	"github.com/kruise-native/kruise-native/pkg/recreaterequest"
)

// byPod indexes requests by "<namespace>/<pod>", so a pod's changes find its requests.
const byPod = "byPod"

// Controller recreates the containers of the requests of one node.
type Controller struct {
	kube     kubernetes.Interface
	kruise   kruiseclient.Interface
	exec     *Executor
	recorder record.EventRecorder
	clock    clock.PassiveClock

	crrs     appslisters.ContainerRecreateRequestLister
	crrIndex cache.Indexer
	pods     corelisters.PodLister
	synced   []cache.InformerSynced
	loop     *reconcile.Loop
}

// New returns a controller over informers scoped to the node: requests labelled with
// the node and active, pods with spec.nodeName of the node. recorder may be nil.
func New(kube kubernetes.Interface, kruise kruiseclient.Interface, crrInformer appsinformers.ContainerRecreateRequestInformer,
	podInformer coreinformers.PodInformer, exec *Executor, recorder record.EventRecorder, clk clock.PassiveClock) (*Controller, error) {
	if clk == nil {
		clk = clock.RealClock{}
	}
	if recorder == nil {
		recorder = &record.FakeRecorder{}
	}
	if err := crrInformer.Informer().AddIndexers(cache.Indexers{byPod: func(obj interface{}) ([]string, error) {
		crr, ok := obj.(*v1alpha1.ContainerRecreateRequest)
		if !ok {
			return nil, nil
		}
		return []string{crr.Namespace + "/" + crr.Spec.PodName}, nil
	}}); err != nil {
		return nil, fmt.Errorf("containerrecreate: add index: %w", err)
	}
	c := &Controller{
		kube: kube, kruise: kruise, exec: exec, recorder: recorder, clock: clk,
		crrs:     crrInformer.Lister(),
		crrIndex: crrInformer.Informer().GetIndexer(),
		pods:     podInformer.Lister(),
		synced:   []cache.InformerSynced{crrInformer.Informer().HasSynced, podInformer.Informer().HasSynced},
	}
	c.loop = reconcile.NewLoop("containerrecreaterequest", c.sync, c.synced...)
	if _, err := crrInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.loop.Enqueue,
		UpdateFunc: c.loop.EnqueueUpdate,
	}); err != nil {
		return nil, fmt.Errorf("containerrecreate: add request handler: %w", err)
	}
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onPod,
		UpdateFunc: func(_, obj interface{}) { c.onPod(obj) },
		DeleteFunc: c.onPod,
	}); err != nil {
		return nil, fmt.Errorf("containerrecreate: add pod handler: %w", err)
	}
	return c, nil
}

func (c *Controller) onPod(obj interface{}) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	crrs, _ := c.crrIndex.ByIndex(byPod, pod.Namespace+"/"+pod.Name)
	for _, crr := range crrs {
		c.loop.Enqueue(crr)
	}
}

// HasSynced reports whether the request and pod informers have synced.
func (c *Controller) HasSynced() bool {
	for _, s := range c.synced {
		if !s() {
			return false
		}
	}
	return true
}

// Run processes requests with workers goroutines until ctx ends. Several workers, so
// that a container taking its whole grace period to stop holds up only its request.
func (c *Controller) Run(ctx context.Context, workers int) error {
	if !cache.WaitForCacheSync(ctx.Done(), c.synced...) {
		return fmt.Errorf("containerrecreate: caches did not sync: %w", context.Cause(ctx))
	}
	klog.FromContext(ctx).Info("Container recreation started", "workers", workers)
	c.loop.Run(ctx, workers)
	return nil
}

// sync takes one step of one request.
func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	crr, err := c.crrs.ContainerRecreateRequests(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if crr.DeletionTimestamp != nil || recreaterequest.Finished(crr.Status.Phase) {
		return 0, nil
	}
	pod, err := c.pod(ctx, ns, crr.Spec.PodName)
	if err != nil {
		return 0, err
	}
	in := Input{CRR: crr, Pod: pod, Now: c.clock.Now(), Exited: c.exited(ctx, crr, pod)}
	d := Decide(in)
	logger := klog.FromContext(ctx)
	logger.V(4).Info("Decided", "step", d.Kind, "reason", d.Reason, "requeueAfter", d.RequeueAfter)

	switch d.Kind {
	case Wait:
		return d.RequeueAfter, nil
	case RecordContext:
		if err := c.write(ctx, crr, d, "", recreaterequest.StatusContextPatch(crr, d.Contexts)); err != nil {
			return 0, fmt.Errorf("recording the containers' status context: %w", err)
		}
		return d.RequeueAfter, nil
	case Stop:
		c.stop(ctx, crr, pod, &d)
	}
	if err := c.write(ctx, crr, d, "status", recreaterequest.DaemonStatusPatch(crr, d.Phase, d.States)); err != nil {
		// A container stopped just now is found exited at the retry and only marked.
		return 0, fmt.Errorf("writing the container states: %w", err)
	}
	c.recorded(ctx, crr, d.States)
	return d.RequeueAfter, nil
}

// write patches the daemon's own fields of crr (recreaterequest: writers.go), on the
// condition that crr is still the stored version: a decision made on a request that
// has changed since (kruise-controller failed it, or this daemon's cache lags behind
// its own last write) is refused, and the queue's retry decides again on the fresh one.
func (c *Controller) write(ctx context.Context, crr *v1alpha1.ContainerRecreateRequest, d Decision, subresource string, patch []byte) error {
	var sub []string
	if subresource != "" {
		sub = []string{subresource}
	}
	_, err := c.kruise.AppsV1alpha1().ContainerRecreateRequests(crr.Namespace).Patch(ctx, crr.Name, types.MergePatchType, patch,
		metav1.PatchOptions{FieldManager: recreaterequest.DaemonFieldManager}, sub...)
	switch {
	case err == nil:
		metrics.RecreateRequestWrites.WithLabelValues("written").Inc()
	case apierrors.IsConflict(err):
		metrics.RecreateRequestWrites.WithLabelValues("refused").Inc()
		klog.FromContext(ctx).Info("Decision refused: the request changed since it was read; deciding again on the fresh one",
			"request", klog.KObj(crr), "step", d.Kind, "reason", d.Reason, "decidedOn", crr.Status.Phase, "resourceVersion", crr.ResourceVersion)
	default:
		metrics.RecreateRequestWrites.WithLabelValues("failed").Inc()
	}
	return err
}

// pod reads the request's pod from the node's cache; a pod missing there is looked up
// once more in the API before the request is failed for it (the cache may lag).
func (c *Controller) pod(ctx context.Context, ns, name string) (*corev1.Pod, error) {
	pod, err := c.pods.Pods(ns).Get(name)
	if err == nil {
		return pod, nil
	}
	if !apierrors.IsNotFound(err) {
		return nil, err
	}
	pod, err = c.kube.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading pod %s/%s: %w", ns, name, err)
	}
	return pod, nil
}

// exited asks the runtime about the recorded container of each container still to be
// stopped. A runtime that does not answer leaves the container out (taken as running:
// stopping a stopped container does no harm, skipping a due stop would).
func (c *Controller) exited(ctx context.Context, crr *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod) map[string]bool {
	if crr.Status.Phase != v1alpha1.ContainerRecreateRequestRecreating || pod == nil {
		return nil
	}
	out := map[string]bool{}
	for _, ctr := range crr.Spec.Containers {
		st := storedState(crr, ctr.Name)
		if ctr.StatusContext == nil || (st != nil && st.Phase != v1alpha1.ContainerRecreateRequestPending) {
			continue
		}
		gone, err := c.exec.Exited(ctx, ctr.StatusContext.ContainerID)
		if err != nil {
			klog.FromContext(ctx).V(2).Info("Runtime did not say whether the container runs", "container", ctr.Name, "err", err)
			continue
		}
		out[ctr.Name] = gone
	}
	return out
}

// stop runs the decided stops, at once, and applies their results to d.States.
func (c *Controller) stop(ctx context.Context, crr *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod, d *Decision) {
	results := make([]StopResult, len(d.Stops))
	var wg sync.WaitGroup
	for i, o := range d.Stops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = c.exec.Stop(ctx, pod, o)
		}()
	}
	wg.Wait()
	for i, o := range d.Stops {
		r := results[i]
		st := stateOf(d, o.Name)
		if r.HookErr != nil {
			c.recorder.Eventf(crr, corev1.EventTypeWarning, "FailedPreStopHook", "Container %s: %v", o.Name, r.HookErr)
			st.Message = fmt.Sprintf("preStop %s hook failed: %v", hookKind(o.PreStop), r.HookErr)
		}
		if r.Err != nil {
			metrics.ContainerRecreations.WithLabelValues("failed").Inc()
			c.recorder.Eventf(crr, corev1.EventTypeWarning, "FailedStopContainer", "%v", r.Err)
			st.Phase, st.IsKilled, st.Message = v1alpha1.ContainerRecreateRequestFailed, false, joinMessages(st.Message, r.Err.Error())
			continue
		}
		metrics.ContainerRecreations.WithLabelValues("stopped").Inc()
		c.recorder.Eventf(crr, corev1.EventTypeNormal, "StoppedContainer", "Stopped container %s (%s) of pod %s to recreate it", o.Name, o.ContainerID, pod.Name)
	}
}

// recorded counts and logs the containers whose final state was just written.
func (c *Controller) recorded(ctx context.Context, crr *v1alpha1.ContainerRecreateRequest, states []v1alpha1.ContainerRecreateRequestContainerRecreateState) {
	var done []string
	for _, st := range states {
		if prev := storedState(crr, st.Name); prev != nil && prev.Phase == st.Phase {
			continue
		}
		if st.Phase == v1alpha1.ContainerRecreateRequestSucceeded {
			metrics.ContainerRecreations.WithLabelValues("succeeded").Inc()
		}
		if finishedState(st.Phase) {
			done = append(done, st.Name+" "+string(st.Phase))
		}
	}
	if len(done) > 0 {
		klog.FromContext(ctx).V(2).Info("Containers done", "request", klog.KObj(crr), "containers", strings.Join(done, ", "))
	}
}

func stateOf(d *Decision, name string) *v1alpha1.ContainerRecreateRequestContainerRecreateState {
	for i := range d.States {
		if d.States[i].Name == name {
			return &d.States[i]
		}
	}
	d.States = append(d.States, v1alpha1.ContainerRecreateRequestContainerRecreateState{Name: name})
	return &d.States[len(d.States)-1]
}

// joinMessages joins two messages, either of which may be empty.
func joinMessages(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}
