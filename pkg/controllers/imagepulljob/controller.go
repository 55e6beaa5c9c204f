// Package imagepulljob pre-pulls images: it lists a job's image in the NodeImages of
// the nodes the job selects, at most parallelism nodes at a time, and sums up the
// node daemons' results in the job's status.
//
// It is the one writer of NodeImage spec in kruise-controller: besides listing tags
// for jobs it prunes them (prune.go: a tag whose ttlSecondsAfterFinished passed, or
// whose every owning job is gone), under a queue key of its own per NodeImage
// ("nodeimage:<name>"). The nodeimage controller only creates and deletes NodeImages;
// the node daemons write their status. Every spec write is an update of the version
// read (resourceVersion), so a write on a stale NodeImage is refused and retried.
package imagepulljob

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/ttl"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "imagepulljob-controller"

// Controller reconciles ImagePullJobs.
type Controller struct {
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	jobs         kruiselisters.ImagePullJobLister
	nodeImages   kruiselisters.NodeImageLister
	nodes        corelisters.NodeLister
	pods         corelisters.PodLister
	loop         *reconcile.Loop
	now          func() time.Time
}

// New builds the controller on the shared informers.
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	jobInformer := cc.KruiseInformers.Apps().V1alpha1().ImagePullJobs()
	niInformer := cc.KruiseInformers.Apps().V1alpha1().NodeImages()
	nodeInformer := cc.KubeInformers.Core().V1().Nodes()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	c := &Controller{
		kruiseClient: cc.KruiseClient,
		recorder:     cc.Recorder(ControllerName),
		jobs:         jobInformer.Lister(),
		nodeImages:   niInformer.Lister(),
		nodes:        nodeInformer.Lister(),
		pods:         podInformer.Lister(),
		now:          time.Now,
	}
	c.loop = reconcile.NewLoop("imagepulljob", c.sync, jobInformer.Informer().HasSynced,
		niInformer.Informer().HasSynced, nodeInformer.Informer().HasSynced, podInformer.Informer().HasSynced)
	if _, err := jobInformer.Informer().AddEventHandler(c.loop.Handler()); err != nil {
		return nil, err
	}
	// A deleted job may leave tags behind: look at the NodeImages that list it.
	if _, err := jobInformer.Informer().AddEventHandler(deleteHandler(func(job *v1alpha1.ImagePullJob) {
		for _, name := range c.nodeImagesOwnedBy(job.UID) {
			c.loop.Add(nodeImageKeyPrefix + name)
		}
	})); err != nil {
		return nil, err
	}
	// A node daemon's progress shows in its NodeImage (and may start a tag's TTL); a new
	// NodeImage (or a node whose labels changed) may be one more node for jobs that
	// select by labels.
	if _, err := niInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			c.enqueueAll()
			c.enqueueNodeImage(obj)
		},
		UpdateFunc: func(_, obj interface{}) {
			c.enqueueOwners(obj.(*v1alpha1.NodeImage))
			c.enqueueNodeImage(obj)
		},
		DeleteFunc: func(interface{}) { c.enqueueAll() },
	}); err != nil {
		return nil, err
	}
	if _, err := nodeInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(old, obj interface{}) {
			if !apiequality.Semantic.DeepEqual(old.(*corev1.Node).Labels, obj.(*corev1.Node).Labels) {
				c.enqueueAll()
			}
		},
	}); err != nil {
		return nil, err
	}
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.onPod,
		UpdateFunc: func(old, obj interface{}) {
			if old.(*corev1.Pod).Spec.NodeName != obj.(*corev1.Pod).Spec.NodeName {
				c.onPod(obj)
			}
		},
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.loop.HasSynced() }

// Run implements manager.Controller.
func (c *Controller) Run(ctx context.Context, workers int) { c.loop.Run(ctx, workers) }

func (c *Controller) enqueueAll() {
	jobs, _ := c.jobs.List(labels.Everything())
	for _, j := range jobs {
		c.loop.Enqueue(j)
	}
}

func (c *Controller) enqueueOwners(ni *v1alpha1.NodeImage) {
	for _, img := range ni.Spec.Images {
		for _, tag := range img.Tags {
			for _, r := range tag.OwnerReferences {
				if r.Kind == "ImagePullJob" {
					c.loop.Add(r.Namespace + "/" + r.Name)
				}
			}
		}
	}
}

// onPod wakes the jobs that pull for pods of the pod's namespace once it has a node.
func (c *Controller) onPod(obj interface{}) {
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod.Spec.NodeName == "" {
		return
	}
	jobs, _ := c.jobs.ImagePullJobs(pod.Namespace).List(labels.Everything())
	for _, j := range jobs {
		if j.Spec.PodSelector != nil {
			c.loop.Enqueue(j)
		}
	}
}

func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	if name, ok := strings.CutPrefix(key, nodeImageKeyPrefix); ok {
		return c.prune(ctx, name)
	}
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	job, err := c.jobs.ImagePullJobs(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil // its tags are pruned under their NodeImages' keys
	}
	if err != nil {
		return 0, err
	}
	if job.DeletionTimestamp != nil {
		return 0, nil
	}
	now := c.now()
	if job.Status.CompletionTime != nil {
		return c.expire(ctx, job, now)
	}

	imageName, tag, err := SplitImage(job.Spec.Image)
	if err != nil {
		return 0, nil // validation refuses such jobs; nothing to do for stored ones
	}
	nodeImages, err := c.selectedNodeImages(job)
	if err != nil {
		c.recorder.Eventf(job, corev1.EventTypeWarning, "InvalidSelector", "Cannot select nodes: %v", err)
		return 0, nil
	}
	states := make([]NodeState, 0, len(nodeImages))
	for _, ni := range nodeImages {
		states = append(states, stateOn(ni, job, imageName, tag))
	}
	plan := Compute(job, states, now)

	byName := map[string]*v1alpha1.NodeImage{}
	for _, ni := range nodeImages {
		byName[ni.Name] = ni
	}
	var writeErr error
	for _, node := range plan.Start {
		if spec := withTag(byName[node], job, imageName, tag, now); spec != nil {
			writeErr = firstErr(writeErr, c.writeSpec(ctx, byName[node], spec))
		}
	}
	for _, node := range plan.Repull {
		if spec := withRepull(byName[node], imageName, tag); spec != nil {
			writeErr = firstErr(writeErr, c.writeSpec(ctx, byName[node], spec))
		}
	}
	if err := c.writeStatus(ctx, job, &plan.Status); err != nil {
		return 0, err
	}
	if writeErr != nil {
		return 0, writeErr
	}
	if plan.Status.CompletionTime != nil {
		c.recorder.Eventf(job, corev1.EventTypeNormal, "Completed", "%s", plan.Status.Message)
		return c.expire(ctx, job, now)
	}
	return c.nextLook(job, plan, now), nil
}

// nextLook is when a running job needs a look without any event: its deadline, or
// (Never) the next daily re-pull.
func (c *Controller) nextLook(job *v1alpha1.ImagePullJob, plan Plan, now time.Time) time.Duration {
	p := job.Spec.CompletionPolicy
	if p.Type == v1alpha1.Never {
		return RepullInterval / 24
	}
	if p.ActiveDeadlineSeconds != nil && plan.Status.StartTime != nil {
		if d := plan.Status.StartTime.Add(time.Duration(*p.ActiveDeadlineSeconds) * time.Second).Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// expire deletes a completed job once its ttlSecondsAfterFinished has passed.
func (c *Controller) expire(ctx context.Context, job *v1alpha1.ImagePullJob, now time.Time) (time.Duration, error) {
	return ttl.Expire(ctx, job.Status.CompletionTime, job.Spec.CompletionPolicy.TTLSecondsAfterFinished, now, func(ctx context.Context) error {
		klog.FromContext(ctx).V(2).Info("Deleting a finished ImagePullJob past its TTL", "job", klog.KObj(job))
		err := c.kruiseClient.AppsV1alpha1().ImagePullJobs(job.Namespace).Delete(ctx, job.Name,
			metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &job.UID}})
		return wrap(err, "deleting ImagePullJob %s/%s", job.Namespace, job.Name)
	})
}

// selectedNodeImages are the NodeImages of the nodes the job selects, in node name order.
// Nodes without a NodeImage (not ready yet) count once they have one.
func (c *Controller) selectedNodeImages(job *v1alpha1.ImagePullJob) ([]*v1alpha1.NodeImage, error) {
	names, err := c.selectedNodes(job)
	if err != nil {
		return nil, err
	}
	var out []*v1alpha1.NodeImage
	for _, n := range sets.List(names) {
		if ni, err := c.nodeImages.Get(n); err == nil {
			out = append(out, ni)
		}
	}
	return out, nil
}

func (c *Controller) selectedNodes(job *v1alpha1.ImagePullJob) (sets.Set[string], error) {
	names := sets.New[string]()
	if ps := job.Spec.PodSelector; ps != nil {
		sel, err := metav1.LabelSelectorAsSelector(&ps.LabelSelector)
		if err != nil {
			return nil, fmt.Errorf("spec.podSelector: %w", err)
		}
		pods, err := c.pods.Pods(job.Namespace).List(sel)
		if err != nil {
			return nil, err
		}
		for _, p := range pods {
			if p.Spec.NodeName != "" && p.DeletionTimestamp == nil {
				names.Insert(p.Spec.NodeName)
			}
		}
		return names, nil
	}
	if s := job.Spec.Selector; s != nil && len(s.Names) > 0 {
		return names.Insert(s.Names...), nil
	}
	sel := labels.Everything()
	if s := job.Spec.Selector; s != nil {
		var err error
		if sel, err = metav1.LabelSelectorAsSelector(&s.LabelSelector); err != nil {
			return nil, fmt.Errorf("spec.selector: %w", err)
		}
	}
	nodes, err := c.nodes.List(sel)
	if err != nil {
		return nil, err
	}
	for _, n := range nodes {
		if n.DeletionTimestamp == nil {
			names.Insert(n.Name)
		}
	}
	return names, nil
}

func (c *Controller) writeSpec(ctx context.Context, ni *v1alpha1.NodeImage, spec *v1alpha1.NodeImageSpec) error {
	updated := ni.DeepCopy()
	updated.Spec = *spec
	_, err := c.kruiseClient.AppsV1alpha1().NodeImages().Update(ctx, updated, metav1.UpdateOptions{FieldManager: ControllerName})
	return wrap(err, "listing the image in NodeImage %s", ni.Name)
}

func (c *Controller) writeStatus(ctx context.Context, job *v1alpha1.ImagePullJob, st *v1alpha1.ImagePullJobStatus) error {
	if apiequality.Semantic.DeepEqual(&job.Status, st) {
		return nil
	}
	updated := job.DeepCopy()
	updated.Status = *st
	_, err := c.kruiseClient.AppsV1alpha1().ImagePullJobs(job.Namespace).UpdateStatus(ctx, updated,
		metav1.UpdateOptions{FieldManager: ControllerName})
	return wrap(err, "updating status of ImagePullJob %s/%s", job.Namespace, job.Name)
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
