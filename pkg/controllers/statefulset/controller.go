// Package statefulset reconciles Advanced StatefulSets (apps.kruise.io StatefulSet):
// the native StatefulSet's ordinals, identities, claims and ordered or parallel pod
// management, plus OpenKruise's parallel and in-place rollouts, reserved ordinals,
// scale limits, claim retention and lifecycle hooks.
//
// The rollout math is pure (Compute, in plan*.go, tested without a server); the sync
// turns what the cache shows into its input and carries out the resulting plan. It
// works on the v1beta1 objects its informer holds (see podworkload).
package statefulset

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

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/imagepredownload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
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

	sets      kruiselisters.StatefulSetLister
	podLister corelisters.PodLister
	claims    corelisters.PersistentVolumeClaimLister
	pods      *podworkload.Control
	loop      *reconcile.Loop
	// setVersions holds the sets whose status this controller wrote: until the
	// informer shows the write, a sync would work from stale status and its own
	// status write would only conflict.
	setVersions *expectations.ResourceVersion
	now         func() time.Time
	// preDownload is set when PreDownloadImageForInPlaceUpdate is on.
	preDownload *imagepredownload.Jobs
}

// New builds the controller on the shared informers.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	setInformer := cc.KruiseInformers.Apps().V1beta1().StatefulSets()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	revInformer := cc.KubeInformers.Apps().V1().ControllerRevisions()
	claimInformer := cc.KubeInformers.Core().V1().PersistentVolumeClaims()
	recorder := cc.Recorder(ControllerName)
	pods, err := podworkload.New(cc.KubeClient, recorder, podInformer.Informer(), revInformer.Informer(), podworkload.Config{
		Name: ControllerName, Kind: controllerKind, Text: eventText{},
		Fresh: func(ctx context.Context, ns, name string) (metav1.Object, error) {
			return cc.KruiseClient.AppsV1beta1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
		},
	})
	if err != nil {
		return nil, err
	}
	c := &Controller{
		kubeClient:   cc.KubeClient,
		kruiseClient: cc.KruiseClient,
		recorder:     recorder,
		sets:         setInformer.Lister(),
		podLister:    podInformer.Lister(),
		claims:       claimInformer.Lister(),
		pods:         pods,
		setVersions:  expectations.NewResourceVersion(),
		now:          time.Now,
	}
	synced := []cache.InformerSynced{setInformer.Informer().HasSynced,
		podInformer.Informer().HasSynced, revInformer.Informer().HasSynced, claimInformer.Informer().HasSynced}
	if cc.Enabled(manager.PreDownloadImageForInPlaceUpdate) {
		jobInformer := cc.KruiseInformers.Apps().V1alpha1().ImagePullJobs()
		c.preDownload = &imagepredownload.Jobs{Client: cc.KruiseClient, Lister: jobInformer.Lister()}
		synced = append(synced, jobInformer.Informer().HasSynced)
	}
	c.loop = reconcile.NewLoop("statefulset", c.sync, synced...)
	if _, err := setInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.loop.Enqueue,
		UpdateFunc: c.loop.EnqueueUpdate,
		DeleteFunc: c.onSetDelete,
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

func (c *Controller) onSetDelete(obj interface{}) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
		c.pods.Forget(key)
	}
	if set, ok := obj.(*v1beta1.StatefulSet); ok {
		c.setVersions.Forget(set.UID)
	}
}

// matching names the sets that may adopt an orphan pod: its labels match their
// selector and its name carries one of their ordinals.
func (c *Controller) matching(pod *corev1.Pod) []string {
	sets, err := c.sets.StatefulSets(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	var members []*v1beta1.StatefulSet
	for _, s := range sets {
		if OrdinalOf(s.Name, pod.Name) >= 0 {
			members = append(members, s)
		}
	}
	return podworkload.MatchingKeys(members, func(s *v1beta1.StatefulSet) *metav1.LabelSelector { return s.Spec.Selector }, pod)
}

// isNotFound treats a vanished object as done, not as a failure.
func isNotFound(err error) bool { return err != nil && apierrors.IsNotFound(err) }

func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
