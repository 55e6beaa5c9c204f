// Package advancedcronjob reconciles AdvancedCronJobs (advancedcronjobs.apps.kruise.io):
// on its schedule, in its time zone, each creates a run of its template — a batch/v1
// Job, a BroadcastJob or an ImageListPullJob — named <name>-<unix time of the start>
// and controlled by it, under its concurrency policy, starting deadline and history
// limits, as kube's CronJob controller runs Jobs.
//
// It works on the v1beta1 objects its informer holds. What a sync does is pure
// (Compute); the controller reads the runs, carries the plan out, records an event for
// each decision and asks to be woken at the next start rather than polling.
package advancedcronjob

import (
	"context"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/controllerref"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "advancedcronjob-controller"

// Controller reconciles AdvancedCronJobs.
type Controller struct {
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	cronJobs     kruiselisters.AdvancedCronJobLister
	kinds        map[v1beta1.TemplateKind]runKind
	// written holds the resourceVersion of our last status write per AdvancedCronJob,
	// until the cache has it.
	written *expectations.ResourceVersion
	loop    *reconcile.Loop
	clock   clock.PassiveClock
}

// New builds the controller on the shared informers: its own kind and the three kinds
// of run, whose changes wake the AdvancedCronJob that controls them.
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	kubeClient, kruiseClient := cc.KubeClient, cc.KruiseClient
	acjInformer := cc.KruiseInformers.Apps().V1beta1().AdvancedCronJobs()
	jobInformer := cc.KubeInformers.Batch().V1().Jobs()
	bcjInformer := cc.KruiseInformers.Apps().V1beta1().BroadcastJobs()
	ilpjInformer := cc.KruiseInformers.Apps().V1alpha1().ImageListPullJobs()
	c := &Controller{
		kruiseClient: kruiseClient,
		recorder:     cc.Recorder(ControllerName),
		cronJobs:     acjInformer.Lister(),
		kinds: map[v1beta1.TemplateKind]runKind{
			v1beta1.JobTemplate:              jobKind(kubeClient, jobInformer.Lister()),
			v1beta1.BroadcastJobTemplate:     broadcastJobKind(kruiseClient, bcjInformer.Lister()),
			v1beta1.ImageListPullJobTemplate: imageListPullJobKind(kruiseClient, ilpjInformer.Lister()),
		},
		written: expectations.NewResourceVersion(),
		clock:   clock.RealClock{},
	}
	c.loop = reconcile.NewLoop("advancedcronjob", c.sync, acjInformer.Informer().HasSynced, jobInformer.Informer().HasSynced,
		bcjInformer.Informer().HasSynced, ilpjInformer.Informer().HasSynced)
	if _, err := acjInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.loop.Enqueue,
		UpdateFunc: c.onUpdate,
		DeleteFunc: c.onDelete,
	}); err != nil {
		return nil, err
	}
	owner := ownerKind.GroupKind()
	for _, inf := range []cache.SharedIndexInformer{jobInformer.Informer(), bcjInformer.Informer(), ilpjInformer.Informer()} {
		if _, err := inf.AddEventHandler(controllerref.EnqueueOwner(owner, c.loop.Add)); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.loop.HasSynced() }

// Run implements manager.Controller.
func (c *Controller) Run(ctx context.Context, workers int) { c.loop.Run(ctx, workers) }

func (c *Controller) onDelete(obj interface{}) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	if acj, ok := obj.(*v1beta1.AdvancedCronJob); ok {
		c.written.Forget(acj.UID)
	}
}

// onUpdate queues a changed AdvancedCronJob. A new schedule or zone may bring the
// next start forward; the sync computes it again, and the queue keeps the earliest wake-up.
func (c *Controller) onUpdate(old, cur interface{}) {
	o, ok1 := old.(*v1beta1.AdvancedCronJob)
	n, ok2 := cur.(*v1beta1.AdvancedCronJob)
	if ok1 && ok2 && (o.Spec.Schedule != n.Spec.Schedule || !ptr.Equal(o.Spec.TimeZone, n.Spec.TimeZone)) {
		c.loop.Enqueue(cur)
		return
	}
	c.loop.EnqueueUpdate(old, cur)
}
