// Package statefulset reconciles Advanced StatefulSets (apps.kruise.io StatefulSet):
// the native StatefulSet's ordinals, identities, claims and ordered or parallel pod
// management, plus OpenKruise's parallel and in-place rollouts, reserved ordinals,
// scale limits, claim retention and lifecycle hooks.
//
// The rollout math is pure (Compute, in plan*.go, tested without a server); the sync
// turns what the cache shows into its input and carries out the resulting plan.
package statefulset

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller/history"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/ownedpods"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller, as in
// OpenKruise.
const ControllerName = "statefulset-controller"

// controllerKind is the owner of pods, claims and revisions: OpenKruise's Advanced
// StatefulSet writes apps.kruise.io/v1beta1 into owner references.
var controllerKind = v1beta1.SchemeGroupVersion.WithKind("StatefulSet")

// Controller reconciles Advanced StatefulSets.
type Controller struct {
	kubeClient   kubernetes.Interface
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	scheme       *runtime.Scheme

	sets        kruiselisters.StatefulSetLister
	pods        corelisters.PodLister
	podIndexer  cache.Indexer
	claims      corelisters.PersistentVolumeClaimLister
	history     history.Interface
	loop        *reconcile.Loop
	scaleExp    *expectations.Scale
	podVersions *expectations.ResourceVersion
	// setVersions holds the sets whose status this controller wrote: until the
	// informer shows the write, a sync would work from stale status and its own
	// status write would only conflict.
	setVersions *expectations.ResourceVersion
	inPlace     *inplaceupdate.Executor
	hooks       lifecycle.Writer
	now         func() time.Time
}

// New builds the controller on the shared informers.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	setInformer := cc.KruiseInformers.Apps().V1beta1().StatefulSets()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	revInformer := cc.KubeInformers.Apps().V1().ControllerRevisions()
	claimInformer := cc.KubeInformers.Core().V1().PersistentVolumeClaims()
	if err := history.AddControllerRevisionControllerIndexer(revInformer.Informer()); err != nil {
		return nil, err
	}
	c := &Controller{
		kubeClient:   cc.KubeClient,
		kruiseClient: cc.KruiseClient,
		recorder:     cc.Recorder(ControllerName),
		scheme:       newScheme(),
		sets:         setInformer.Lister(),
		pods:         podInformer.Lister(),
		podIndexer:   podInformer.Informer().GetIndexer(),
		claims:       claimInformer.Lister(),
		history:      history.NewHistory(cc.KubeClient, revInformer.Lister(), revInformer.Informer().GetIndexer()),
		scaleExp:     expectations.NewScale(),
		podVersions:  expectations.NewResourceVersion(),
		setVersions:  expectations.NewResourceVersion(),
		inPlace:      &inplaceupdate.Executor{Pods: podpatch.New(cc.KubeClient.CoreV1(), ControllerName)},
		hooks:        lifecycle.Writer{Pods: podpatch.New(cc.KubeClient.CoreV1(), ControllerName)},
		now:          time.Now,
	}
	c.loop = reconcile.NewLoop("statefulset", c.sync, setInformer.Informer().HasSynced,
		podInformer.Informer().HasSynced, revInformer.Informer().HasSynced, claimInformer.Informer().HasSynced)
	if _, err := setInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.loop.Enqueue,
		UpdateFunc: c.loop.EnqueueUpdate,
		DeleteFunc: c.onSetDelete,
	}); err != nil {
		return nil, err
	}
	pods := &ownedpods.Handler{Owner: controllerKind.GroupKind(), Scale: c.scaleExp, Versions: c.podVersions, Enqueue: c.loop.Add}
	if _, err := podInformer.Informer().AddEventHandler(pods.Funcs()); err != nil {
		return nil, err
	}
	return c, nil
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.loop.HasSynced() }

// Run processes the queue until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) { c.loop.Run(ctx, workers) }

func (c *Controller) onSetDelete(obj interface{}) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
		c.scaleExp.Forget(key)
	}
	if set, ok := obj.(*v1beta1.StatefulSet); ok {
		c.setVersions.Forget(set.UID)
	}
}

// isNotFound treats a vanished object as done, not as a failure.
func isNotFound(err error) bool { return err != nil && apierrors.IsNotFound(err) }

func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
