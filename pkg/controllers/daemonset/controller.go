// Package daemonset reconciles Advanced DaemonSets (daemonsets.apps.kruise.io): one
// pod per eligible node, pinned to it and bound by the scheduler, and rollouts that a
// node selector, a partition and a pause limit, by recreation, surge or in place.
//
// It works on the v1beta1 objects its informer holds (see podworkload: no conversion
// to the hub type); node eligibility and the rollout math are pure (nodeplacement.NodeEligibility,
// Compute).
package daemonset

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/imagepredownload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/nodeplacement"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	"github.com/kruise-native/kruise-native/pkg/features"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "daemonset-controller"

// controllerKind owns the DaemonSet's revisions; podOwnerKind is what its pods' owner
// references carry: v1alpha1, as OpenKruise writes them.
var (
	controllerKind = v1beta1.SchemeGroupVersion.WithKind("DaemonSet")
	podOwnerKind   = v1alpha1.SchemeGroupVersion.WithKind("DaemonSet")
)

// Controller reconciles Advanced DaemonSets.
type Controller struct {
	*podworkload.Base[*v1beta1.DaemonSet, v1beta1.DaemonSetStatus]
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	daemonSets   kruiselisters.DaemonSetLister
	nodes        corelisters.NodeLister
	pods         *podworkload.Control
	now          func() time.Time
	// preDownload is set when PreDownloadImageForDaemonSetUpdate is on.
	preDownload *imagepredownload.Jobs
	// readinessGate is KruisePodReadinessGate: new pods get the KruisePodReady gate
	// their lifecycle hooks need (lifecycle.InjectReadinessGate).
	readinessGate bool
}

// New builds the controller on the shared informers.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	dsInformer := cc.KruiseInformers.Apps().V1beta1().DaemonSets()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	revInformer := cc.KubeInformers.Apps().V1().ControllerRevisions()
	nodeInformer := cc.KubeInformers.Core().V1().Nodes()
	recorder := cc.Recorder(ControllerName)
	c := &Controller{
		kruiseClient: cc.KruiseClient,
		recorder:     recorder,
		daemonSets:   dsInformer.Lister(),
		nodes:        nodeInformer.Lister(),
		now:          time.Now,
	}
	w := podworkload.Wiring{
		Config:    podworkload.Config{Name: ControllerName, Kind: controllerKind, PodOwnerKind: podOwnerKind, Text: eventText{}, InPlace: cc.InPlaceOptions()},
		Workloads: dsInformer.Informer(), Pods: podInformer.Informer(), Revisions: revInformer.Informer(),
		Synced:   []cache.InformerSynced{nodeInformer.Informer().HasSynced},
		Matching: c.matching,
	}
	c.readinessGate = cc.Enabled(features.KruisePodReadinessGate)
	if cc.Enabled(features.PreDownloadImageForDaemonSetUpdate) {
		jobInformer := cc.KruiseInformers.Apps().V1alpha1().ImagePullJobs()
		c.preDownload = &imagepredownload.Jobs{Client: cc.KruiseClient, Lister: jobInformer.Lister()}
		w.Synced = append(w.Synced, jobInformer.Informer().HasSynced)
	}
	base, err := podworkload.NewBase(cc.KubeClient, recorder, api{cc.KruiseClient}, w, c.sync)
	if err != nil {
		return nil, err
	}
	c.Base, c.pods = base, base.Pods
	if _, err := nodeInformer.Informer().AddEventHandler(nodeplacement.NodeHandler(c.enqueueAll)); err != nil {
		return nil, err
	}
	return c, nil
}

// enqueueAll queues every DaemonSet: a node that comes, goes or changes may concern
// any of them, and deciding which costs as much as a sync that finds nothing to do.
func (c *Controller) enqueueAll() {
	sets, err := c.daemonSets.List(labels.Everything())
	if err != nil {
		return
	}
	for _, ds := range sets {
		c.Loop.Enqueue(ds)
	}
}

// matching names the DaemonSets that may adopt an orphan pod.
func (c *Controller) matching(pod *corev1.Pod) []string {
	sets, err := c.daemonSets.DaemonSets(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	return podworkload.MatchingKeys(sets, func(ds *v1beta1.DaemonSet) *metav1.LabelSelector { return ds.Spec.Selector }, pod)
}
