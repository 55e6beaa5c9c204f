// Package ephemeraljob runs EphemeralJobs (ephemeraljobs.apps.kruise.io): it injects the
// ephemeral containers of a job's template into the pods its selector matches, through
// each pod's ephemeralcontainers subresource, at most spec.parallelism pods at a time
// and spec.replicas pods in all (the oldest matching pods first), and reports how the
// containers end in the job's status (match, running, succeeded, failed, waiting,
// phase, conditions), as OpenKruise does.
//
// Writes: one ephemeralcontainers patch per target pod (the scale expectations keep a
// sync on a stale cache from patching it twice) and a status write only when the
// status computed from the pods differs from the stored one, so the job is written
// once per change of a pod's ephemeral containers, never per sync. A finished job is
// deleted ttlSecondsAfterFinished (default 1800) after its completionTime; a job
// active longer than activeDeadlineSeconds fails.
//
// Deleting a job removes nothing from the pods: kube never removes or changes an
// ephemeral container once added (OpenKruise's removal is a no-op too), so the job
// carries no finalizer.
package ephemeraljob

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/ttl"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "ephemeraljob-controller"

// defaultTTLSecondsAfterFinished is OpenKruise's: a job without a TTL is deleted half
// an hour after it finished.
const defaultTTLSecondsAfterFinished = 1800

// Controller reconciles EphemeralJobs.
type Controller struct {
	kube     kubernetes.Interface
	kruise   kruiseclient.Interface
	recorder record.EventRecorder

	jobs kruiselisters.EphemeralJobLister
	pods corelisters.PodLister

	// injected holds, per job key, the pods patched but not yet seen with the job's
	// containers in the cache.
	injected *expectations.Scale
	// written holds jobs whose status this controller wrote until the cache has the
	// write: a sync on the older cached job would compute the change again and write
	// it once more (a conflict, but a write all the same).
	written *expectations.ResourceVersion
	now     func() time.Time

	loop *reconcile.Loop
}

// New builds the controller on the shared informers.
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	jobInformer := cc.KruiseInformers.Apps().V1alpha1().EphemeralJobs()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	c := &Controller{
		kube:     cc.KubeClient,
		kruise:   cc.KruiseClient,
		recorder: cc.Recorder(ControllerName),
		jobs:     jobInformer.Lister(),
		pods:     podInformer.Lister(),
		injected: expectations.NewScale(),
		written:  expectations.NewResourceVersion(),
		now:      time.Now,
	}
	c.loop = reconcile.NewLoop("ephemeraljob", c.sync, jobInformer.Informer().HasSynced, podInformer.Informer().HasSynced)
	if _, err := jobInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.loop.Enqueue,
		UpdateFunc: c.loop.EnqueueUpdate,
		DeleteFunc: c.onJobDeleted,
	}); err != nil {
		return nil, fmt.Errorf("ephemeraljob handler: %w", err)
	}
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj interface{}) { c.onPod(obj) },
		UpdateFunc: func(old, cur interface{}) { c.onPod(old, cur) },
		DeleteFunc: func(obj interface{}) { c.onPod(obj) },
	}); err != nil {
		return nil, fmt.Errorf("ephemeraljob pod handler: %w", err)
	}
	return c, nil
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.loop.HasSynced() }

// Run processes the queue until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) { c.loop.Run(ctx, workers) }

// onJobDeleted forgets what was expected of the job and syncs its key (which finds it gone).
func (c *Controller) onJobDeleted(obj interface{}) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if j, ok := obj.(*v1alpha1.EphemeralJob); ok {
		c.written.Forget(j.UID)
		c.loop.Enqueue(j)
	}
}

// onPod queues the jobs of the pod's namespace that select it.
func (c *Controller) onPod(objs ...interface{}) {
	var pods []*corev1.Pod
	for _, obj := range objs {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if pod, ok := obj.(*corev1.Pod); ok {
			pods = append(pods, pod)
		}
	}
	if len(pods) == 0 {
		return
	}
	// An update's old and new pod share a namespace: its jobs are listed once.
	jobs, err := c.jobs.EphemeralJobs(pods[0].Namespace).List(labels.Everything())
	if err != nil {
		return
	}
	for _, j := range jobs {
		for _, pod := range pods {
			if selects(j, pod) {
				c.loop.Enqueue(j)
				break
			}
		}
	}
}

func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	job, err := c.jobs.EphemeralJobs(ns).Get(name)
	if apierrors.IsNotFound(err) {
		c.injected.Forget(key)
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if job.DeletionTimestamp != nil {
		return 0, nil
	}
	if !c.written.Observe(job) {
		return 0, nil // the event of our status write syncs again
	}
	now := c.now()
	if job.Status.CompletionTime != nil {
		return c.expire(ctx, job, now)
	}

	all, err := c.pods.Pods(ns).List(labels.Everything())
	if err != nil {
		return 0, err
	}
	targets := targetPods(job, all)
	for _, p := range targets {
		if state := podState(job, p); state.injected {
			c.injected.Observe(key, expectations.Create, p.Name)
		}
	}

	status := computeStatus(job, targets, now)
	if status.Phase != v1alpha1.EphemeralJobPause && status.CompletionTime == nil && c.injected.Satisfied(key) {
		if err := c.inject(ctx, key, job, targets); err != nil {
			return 0, err
		}
	}
	if err := c.writeStatus(ctx, job, status); err != nil {
		return 0, err
	}
	if status.CompletionTime != nil {
		return c.expire(ctx, &v1alpha1.EphemeralJob{ObjectMeta: job.ObjectMeta, Spec: job.Spec, Status: *status}, now)
	}
	return deadlineLeft(job.Spec.ActiveDeadlineSeconds, status.StartTime, now), nil
}

// expire deletes a finished job once its TTL has passed.
func (c *Controller) expire(ctx context.Context, job *v1alpha1.EphemeralJob, now time.Time) (time.Duration, error) {
	seconds := ptr.Deref(job.Spec.TTLSecondsAfterFinished, defaultTTLSecondsAfterFinished)
	return ttl.Expire(ctx, job.Status.CompletionTime, &seconds, now, func(ctx context.Context) error {
		klog.FromContext(ctx).Info("Deleting finished EphemeralJob after its TTL", "ephemeralJob", klog.KObj(job))
		err := c.kruise.AppsV1alpha1().EphemeralJobs(job.Namespace).Delete(ctx, job.Name,
			metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &job.UID}})
		if err != nil {
			return fmt.Errorf("deleting EphemeralJob %s/%s after its TTL: %w", job.Namespace, job.Name, err)
		}
		return nil
	})
}

// deadlineLeft is how long until an active job's deadline (0: none).
func deadlineLeft(deadline *int64, start *metav1.Time, now time.Time) time.Duration {
	if deadline == nil || start == nil {
		return 0
	}
	left := start.Add(time.Duration(*deadline) * time.Second).Sub(now)
	if left <= 0 {
		return time.Second
	}
	return left
}

// writeStatus stores status unless the job already has it.
func (c *Controller) writeStatus(ctx context.Context, job *v1alpha1.EphemeralJob, status *v1alpha1.EphemeralJobStatus) error {
	if statusEqual(&job.Status, status) {
		return nil
	}
	upd := job.DeepCopy()
	upd.Status = *status
	written, err := c.kruise.AppsV1alpha1().EphemeralJobs(job.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{FieldManager: ControllerName})
	if err == nil {
		c.written.Expect(written)
		return nil
	}
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return nil // the newer job's event syncs again
	}
	return fmt.Errorf("updating status of EphemeralJob %s/%s: %w", job.Namespace, job.Name, err)
}
