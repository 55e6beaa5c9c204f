// Package cloneset reconciles CloneSets: it creates, deletes and updates (in place or
// by recreation) the pods a CloneSet owns directly, and reports their state.
package cloneset

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
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

// ControllerName is the event source and field manager of this controller.
const ControllerName = "cloneset-controller"

var controllerKind = v1beta1.SchemeGroupVersion.WithKind("CloneSet")

// Controller reconciles CloneSets.
type Controller struct {
	kubeClient   kubernetes.Interface
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	scheme       *runtime.Scheme

	cloneSets   kruiselisters.CloneSetLister
	podIndexer  cache.Indexer
	history     history.Interface
	loop        *reconcile.Loop
	scaleExp    *expectations.Scale
	podVersions *expectations.ResourceVersion
	inPlace     *inplaceupdate.Executor
	hooks       lifecycle.Writer
	now         func() time.Time
}

// New builds the controller on the shared informers.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	csInformer := cc.KruiseInformers.Apps().V1beta1().CloneSets()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	revInformer := cc.KubeInformers.Apps().V1().ControllerRevisions()
	if err := history.AddControllerRevisionControllerIndexer(revInformer.Informer()); err != nil {
		return nil, err
	}
	c := &Controller{
		kubeClient:   cc.KubeClient,
		kruiseClient: cc.KruiseClient,
		recorder:     cc.Recorder(ControllerName),
		scheme:       newScheme(),
		cloneSets:    csInformer.Lister(),
		podIndexer:   podInformer.Informer().GetIndexer(),
		history:      history.NewHistory(cc.KubeClient, revInformer.Lister(), revInformer.Informer().GetIndexer()),
		scaleExp:     expectations.NewScale(),
		podVersions:  expectations.NewResourceVersion(),
		inPlace:      &inplaceupdate.Executor{Pods: podpatch.New(cc.KubeClient.CoreV1(), ControllerName)},
		hooks:        lifecycle.Writer{Pods: podpatch.New(cc.KubeClient.CoreV1(), ControllerName)},
		now:          time.Now,
	}
	c.loop = reconcile.NewLoop("cloneset", c.sync,
		csInformer.Informer().HasSynced, podInformer.Informer().HasSynced, revInformer.Informer().HasSynced)
	if _, err := csInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: c.loop.EnqueueUpdate,
		DeleteFunc: c.onCloneSetDelete,
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

func (c *Controller) enqueue(obj interface{}) { c.loop.Enqueue(obj) }

func (c *Controller) onCloneSetDelete(obj interface{}) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.scaleExp.Forget(key)
}

// isNotFound treats a vanished object as done, not as a failure.
func isNotFound(err error) bool { return err != nil && apierrors.IsNotFound(err) }

func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
