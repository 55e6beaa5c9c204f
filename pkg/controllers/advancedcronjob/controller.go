// Package advancedcronjob reconciles AdvancedCronJobs (advancedcronjobs.apps.kruise.io):
// on its schedule, in its time zone, each creates a run of its template — a batch/v1
// Job, a BroadcastJob or an ImageListPullJob — named <name>-<unix time of the start>
// and controlled by it, under its concurrency policy, starting deadline and history
// limits, as kube's CronJob controller runs Jobs.
//
// It works on the v1beta1 objects its informer holds. What a sync does is pure
// (Compute); the controller reads the runs, carries the plan out, records an event for
// each decision and asks to be woken at the next start rather than polling.
//
// Runs are those of the kind of the current template. A run of another kind (the
// template changed kind) counts while the status lists it active; it is not pruned by
// the history limits, and goes with the AdvancedCronJob.
package advancedcronjob

import (
	"context"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/controllerref"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
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
	// kinds are the run kinds by template kind, whose values are the runs' Kind names
	// (a reference's Kind finds its runKind).
	kinds map[v1beta1.TemplateKind]runKind
	// status writes the status and holds syncs off a cached copy older than the last
	// one written.
	status *podworkload.StatusWriter[*v1beta1.AdvancedCronJob, v1beta1.AdvancedCronJobStatus]
	loop   *reconcile.Loop
	clock  clock.PassiveClock
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
		status: podworkload.NewStatusWriter(statusAPI{kruiseClient}),
		clock:  clock.RealClock{},
	}
	c.loop = reconcile.NewLoop("advancedcronjob", c.sync, acjInformer.Informer().HasSynced, jobInformer.Informer().HasSynced,
		bcjInformer.Informer().HasSynced, ilpjInformer.Informer().HasSynced)
	if _, err := acjInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.loop.Enqueue,
		UpdateFunc: c.loop.EnqueueUpdate, // a new schedule is a spec change: synced, and requeued at its next start
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
		c.status.Forget(acj)
	}
}
