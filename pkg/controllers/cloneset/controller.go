// Package cloneset reconciles CloneSets: it creates, deletes and updates (in place or
// by recreation) the pods a CloneSet owns directly, and reports their state.
//
// It works on the v1beta1 objects its informer holds (see podworkload: no conversion
// to the hub type); the rollout math is pure (Compute, in plan.go).
package cloneset

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/imagepredownload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "cloneset-controller"

// controllerKind owns the CloneSet's revisions; podOwnerKind is what its pods' and
// claims' owner references carry: v1alpha1, as OpenKruise writes them, so tools that
// follow owner references keep working.
var (
	controllerKind = v1beta1.SchemeGroupVersion.WithKind("CloneSet")
	podOwnerKind   = v1alpha1.SchemeGroupVersion.WithKind("CloneSet")
)

// Controller reconciles CloneSets.
type Controller struct {
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	cloneSets    kruiselisters.CloneSetLister
	pods         *podworkload.Control
	loop         *reconcile.Loop
	now          func() time.Time
	// preDownload is set when PreDownloadImageForInPlaceUpdate is on.
	preDownload *imagepredownload.Jobs
}

// New builds the controller on the shared informers.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	csInformer := cc.KruiseInformers.Apps().V1beta1().CloneSets()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	revInformer := cc.KubeInformers.Apps().V1().ControllerRevisions()
	recorder := cc.Recorder(ControllerName)
	pods, err := podworkload.New(cc.KubeClient, recorder, podInformer.Informer(), revInformer.Informer(), podworkload.Config{
		Name: ControllerName, Kind: controllerKind, PodOwnerKind: podOwnerKind, Text: eventText{},
		Fresh: func(ctx context.Context, ns, name string) (metav1.Object, error) {
			return cc.KruiseClient.AppsV1beta1().CloneSets(ns).Get(ctx, name, metav1.GetOptions{})
		},
	})
	if err != nil {
		return nil, err
	}
	c := &Controller{
		kruiseClient: cc.KruiseClient,
		recorder:     recorder,
		cloneSets:    csInformer.Lister(),
		pods:         pods,
		now:          time.Now,
	}
	synced := []cache.InformerSynced{csInformer.Informer().HasSynced, podInformer.Informer().HasSynced, revInformer.Informer().HasSynced}
	if cc.Enabled(manager.PreDownloadImageForInPlaceUpdate) {
		jobInformer := cc.KruiseInformers.Apps().V1alpha1().ImagePullJobs()
		c.preDownload = &imagepredownload.Jobs{Client: cc.KruiseClient, Lister: jobInformer.Lister()}
		synced = append(synced, jobInformer.Informer().HasSynced)
	}
	c.loop = reconcile.NewLoop("cloneset", c.sync, synced...)
	if _, err := csInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.loop.Enqueue,
		UpdateFunc: c.loop.EnqueueUpdate,
		DeleteFunc: c.onCloneSetDelete,
	}); err != nil {
		return nil, err
	}
	if _, err := podInformer.Informer().AddEventHandler(pods.PodHandler(c.loop.Add, c.matching)); err != nil {
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

func (c *Controller) onCloneSetDelete(obj interface{}) {
	if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
		c.pods.Forget(key)
	}
}

// matching names the CloneSets that may adopt an orphan pod.
func (c *Controller) matching(pod *corev1.Pod) []string {
	sets, err := c.cloneSets.CloneSets(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	return podworkload.MatchingKeys(sets, func(cs *v1beta1.CloneSet) *metav1.LabelSelector { return cs.Spec.Selector }, pod)
}
