// Package imagelistpulljob pre-pulls a list of images: one ImagePullJob per image, owned
// by the list, whose results the list sums up.
package imagelistpulljob

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/controllerref"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/ttl"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "imagelistpulljob-controller"

// Controller reconciles ImageListPullJobs.
type Controller struct {
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	lists        kruiselisters.ImageListPullJobLister
	jobs         kruiselisters.ImagePullJobLister
	loop         *reconcile.Loop
	now          func() time.Time
}

// New builds the controller on the shared informers.
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	listInformer := cc.KruiseInformers.Apps().V1alpha1().ImageListPullJobs()
	jobInformer := cc.KruiseInformers.Apps().V1alpha1().ImagePullJobs()
	c := &Controller{
		kruiseClient: cc.KruiseClient,
		recorder:     cc.Recorder(ControllerName),
		lists:        listInformer.Lister(),
		jobs:         jobInformer.Lister(),
		now:          time.Now,
	}
	c.loop = reconcile.NewLoop("imagelistpulljob", c.sync, listInformer.Informer().HasSynced, jobInformer.Informer().HasSynced)
	if _, err := listInformer.Informer().AddEventHandler(c.loop.Handler()); err != nil {
		return nil, err
	}
	if _, err := jobInformer.Informer().AddEventHandler(controllerref.EnqueueOwner(listKind.GroupKind(), c.loop.Add)); err != nil {
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

func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	list, err := c.lists.ImageListPullJobs(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil // the garbage collector deletes the children it owned
	}
	if err != nil || list.DeletionTimestamp != nil {
		return 0, err
	}
	now := c.now()
	if list.Status.CompletionTime != nil {
		return c.expire(ctx, list, now)
	}
	children, err := c.children(list)
	if err != nil {
		return 0, err
	}
	plan := Compute(list, children, now)
	client := c.kruiseClient.AppsV1alpha1().ImagePullJobs(ns)
	for _, img := range plan.Create {
		_, err := client.Create(ctx, NewChild(list, img), metav1.CreateOptions{FieldManager: ControllerName})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			c.recorder.Eventf(list, corev1.EventTypeWarning, "FailedCreate", "Cannot create the ImagePullJob of %s: %v", img, err)
			return 0, fmt.Errorf("creating the ImagePullJob of %s: %w", img, err)
		}
	}
	for _, job := range plan.Delete {
		err := client.Delete(ctx, job.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &job.UID}})
		if err != nil && !apierrors.IsNotFound(err) {
			return 0, fmt.Errorf("deleting ImagePullJob %s: %w", job.Name, err)
		}
	}
	if !apiequality.Semantic.DeepEqual(&list.Status, &plan.Status) {
		updated := list.DeepCopy()
		updated.Status = plan.Status
		if _, err := c.kruiseClient.AppsV1alpha1().ImageListPullJobs(ns).UpdateStatus(ctx, updated,
			metav1.UpdateOptions{FieldManager: ControllerName}); err != nil {
			return 0, fmt.Errorf("updating status of ImageListPullJob %s: %w", key, err)
		}
	}
	if plan.Status.CompletionTime != nil {
		c.recorder.Eventf(list, corev1.EventTypeNormal, "Completed", "%d of %d images pulled on every selected node",
			plan.Status.Succeeded, plan.Status.Desired)
		return c.expire(ctx, list, now)
	}
	return 0, nil
}

// children are the ImagePullJobs the list controls.
func (c *Controller) children(list *v1alpha1.ImageListPullJob) ([]*v1alpha1.ImagePullJob, error) {
	all, err := c.jobs.ImagePullJobs(list.Namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	var out []*v1alpha1.ImagePullJob
	for _, j := range all {
		if ref := metav1.GetControllerOf(j); ref != nil && ref.UID == list.UID {
			out = append(out, j)
		}
	}
	return out, nil
}

// expire deletes a completed list once its ttlSecondsAfterFinished has passed.
func (c *Controller) expire(ctx context.Context, list *v1alpha1.ImageListPullJob, now time.Time) (time.Duration, error) {
	return ttl.Expire(ctx, list.Status.CompletionTime, list.Spec.CompletionPolicy.TTLSecondsAfterFinished, now, func(ctx context.Context) error {
		klog.FromContext(ctx).V(2).Info("Deleting a finished ImageListPullJob past its TTL", "list", klog.KObj(list))
		err := c.kruiseClient.AppsV1alpha1().ImageListPullJobs(list.Namespace).Delete(ctx, list.Name,
			metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &list.UID}})
		if err != nil {
			return fmt.Errorf("deleting ImageListPullJob %s/%s: %w", list.Namespace, list.Name, err)
		}
		return nil
	})
}
