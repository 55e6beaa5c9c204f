// Package sidecarset reconciles SidecarSets: it records each version of a SidecarSet's
// sidecars as a ControllerRevision, upgrades the sidecars of the pods it was injected
// into in place (cold: new image, restart; hot: the idle container of the pair takes the
// new image and over), within partition, maxUnavailable and the canary selector, and
// reports matched/updated/ready pods. Pods are found through the injected-list
// annotation the pod webhook writes (an index), never by listing every pod.
package sidecarset

import (
	"context"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller/history"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "sidecarset-controller"

// injectedIndex indexes pods by the SidecarSets injected into them.
const injectedIndex = "kruise.io/sidecarset-injected"

var controllerKind = v1beta1.SchemeGroupVersion.WithKind("SidecarSet")

// Controller reconciles SidecarSets.
type Controller struct {
	kubeClient   kubernetes.Interface
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	scheme       *runtime.Scheme

	sidecarSets kruiselisters.SidecarSetLister
	podIndexer  cache.Indexer
	namespaces  corelisters.NamespaceLister
	revisions   appslisters.ControllerRevisionLister
	history     history.Interface
	loop        *reconcile.Loop
	podVersions *expectations.ResourceVersion
	status      *podworkload.StatusWriter[*v1beta1.SidecarSet, v1beta1.SidecarSetStatus]
	now         func() time.Time

	// blocked remembers the last rollout-blocked message per SidecarSet, so the event
	// is recorded when the reason changes, not on every sync.
	blockedMu sync.Mutex
	blocked   map[string]string
}

// New builds the controller on the shared informers.
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	ssInformer := cc.KruiseInformers.Apps().V1beta1().SidecarSets()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	nsInformer := cc.KubeInformers.Core().V1().Namespaces()
	revInformer := cc.KubeInformers.Apps().V1().ControllerRevisions()
	if err := addInjectedIndex(podInformer.Informer()); err != nil {
		return nil, err
	}
	if err := history.AddControllerRevisionControllerIndexer(revInformer.Informer()); err != nil {
		return nil, err
	}
	c := &Controller{
		kubeClient:   cc.KubeClient,
		kruiseClient: cc.KruiseClient,
		recorder:     cc.Recorder(ControllerName),
		scheme:       newScheme(),
		sidecarSets:  ssInformer.Lister(),
		podIndexer:   podInformer.Informer().GetIndexer(),
		namespaces:   nsInformer.Lister(),
		revisions:    revInformer.Lister(),
		history:      history.NewHistory(cc.KubeClient, revInformer.Lister(), revInformer.Informer().GetIndexer()),
		podVersions:  expectations.NewResourceVersion(),
		status:       podworkload.NewStatusWriter(statusAPI{cc.KruiseClient}),
		now:          time.Now,
		blocked:      map[string]string{},
	}
	c.loop = reconcile.NewLoop("sidecarset", c.sync, ssInformer.Informer().HasSynced, podInformer.Informer().HasSynced,
		nsInformer.Informer().HasSynced, revInformer.Informer().HasSynced)
	if _, err := ssInformer.Informer().AddEventHandler(c.loop.Handler()); err != nil {
		return nil, err
	}
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			c.onPod(obj)
			if pod, ok := obj.(*corev1.Pod); ok {
				c.reportMissedInjection(pod)
			}
		},
		UpdateFunc: func(_, obj interface{}) { c.onPod(obj) },
		DeleteFunc: c.onPod,
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// addInjectedIndex indexes pods by the SidecarSets their injected-list annotation names.
func addInjectedIndex(informer cache.SharedIndexInformer) error {
	if _, exists := informer.GetIndexer().GetIndexers()[injectedIndex]; exists {
		return nil
	}
	return informer.AddIndexers(cache.Indexers{injectedIndex: func(obj interface{}) ([]string, error) {
		pod, ok := obj.(*corev1.Pod)
		if !ok || pod.Annotations[pub.SidecarSetListAnnotation] == "" {
			return nil, nil
		}
		return strings.Split(pod.Annotations[pub.SidecarSetListAnnotation], ","), nil
	}})
}

// onPod syncs the SidecarSets injected into a pod that changed.
func (c *Controller) onPod(obj interface{}) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod.Annotations[pub.SidecarSetListAnnotation] == "" {
		return
	}
	for _, name := range strings.Split(pod.Annotations[pub.SidecarSetListAnnotation], ",") {
		c.loop.Add(name)
	}
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.loop.HasSynced() }

// Run implements manager.Controller.
func (c *Controller) Run(ctx context.Context, workers int) { c.loop.Run(ctx, workers) }

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(apps.AddToScheme(s))
	utilruntime.Must(v1beta1.AddToScheme(s))
	return s
}
