// Package uniteddeployment reconciles UnitedDeployments (uniteddeployments.apps.kruise.io):
// one workload per subset — a CloneSet, an Advanced StatefulSet, a StatefulSet or a
// Deployment, as the template says — owned by the UnitedDeployment, whose pods carry
// the subset's node term, tolerations and patch (subsetPodTemplate); spec.replicas
// divided between the subsets (pkg/apis/apps/rules/uniteddeployment.Divide); each subset's partition
// from updateStrategy.manualUpdate; with Adaptive scheduling, replicas of a subset
// whose pods stay unschedulable move to the next subsets (DecideAdaptive).
//
// It works on v1beta1 objects (which carry every v1alpha1 field); the decisions are
// pure (Compute, DecideAdaptive, computeStatus) and table-tested.
package uniteddeployment

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller/history"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/controllerref"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "uniteddeployment-controller"

// controllerKind is the kind its revisions are listed under; ownerKind is what the
// subset workloads' owner references carry: v1alpha1, as OpenKruise writes them.
var (
	controllerKind = v1beta1.SchemeGroupVersion.WithKind("UnitedDeployment")
	ownerKind      = v1alpha1.SchemeGroupVersion.WithKind("UnitedDeployment")
	ownerGroupKind = schema.GroupKind{Group: v1beta1.SchemeGroupVersion.Group, Kind: "UnitedDeployment"}
)

// Controller reconciles UnitedDeployments.
type Controller struct {
	kubeClient   kubernetes.Interface
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	uds          kruiselisters.UnitedDeploymentLister
	pods         corelisters.PodLister
	history      history.Interface
	kinds        adapters
	// expect holds the workloads created and deleted but not yet seen by the
	// informers, per UnitedDeployment: a sync on a stale cache must not create a
	// subset's workload twice.
	expect *expectations.Scale
	// status writes the UnitedDeployment's status and holds syncs off a cached copy
	// older than the last one written.
	status *podworkload.StatusWriter[*v1beta1.UnitedDeployment, v1beta1.UnitedDeploymentStatus]
	loop   *reconcile.Loop
	now    func() time.Time
}

// adapters are the four kinds a subset can be.
type adapters struct {
	cloneSets            subsetKind[*v1beta1.CloneSet]
	advancedStatefulSets subsetKind[*v1beta1.StatefulSet]
	statefulSets         subsetKind[*appsv1.StatefulSet]
	deployments          subsetKind[*appsv1.Deployment]
}

// For returns the adapter of the kind the UnitedDeployment's template makes.
func (a adapters) For(ud *v1beta1.UnitedDeployment) kindAdapter {
	t := &ud.Spec.Template
	switch {
	case t.CloneSetTemplate != nil:
		return a.cloneSets
	case t.AdvancedStatefulSetTemplate != nil:
		return a.advancedStatefulSets
	case t.StatefulSetTemplate != nil:
		return a.statefulSets
	case t.DeploymentTemplate != nil:
		return a.deployments
	}
	return nil
}

// New builds the controller on the shared informers.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	udInformer := cc.KruiseInformers.Apps().V1beta1().UnitedDeployments()
	csInformer := cc.KruiseInformers.Apps().V1beta1().CloneSets()
	astsInformer := cc.KruiseInformers.Apps().V1beta1().StatefulSets()
	ssInformer := cc.KubeInformers.Apps().V1().StatefulSets()
	depInformer := cc.KubeInformers.Apps().V1().Deployments()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	revInformer := cc.KubeInformers.Apps().V1().ControllerRevisions()
	c := &Controller{
		kubeClient:   cc.KubeClient,
		kruiseClient: cc.KruiseClient,
		recorder:     cc.Recorder(ControllerName),
		uds:          udInformer.Lister(),
		pods:         podInformer.Lister(),
		history:      history.NewHistory(cc.KubeClient, revInformer.Lister(), revInformer.Informer().GetIndexer()),
		kinds: adapters{
			cloneSets:            cloneSets(cc.KruiseClient, csInformer.Lister()),
			advancedStatefulSets: advancedStatefulSets(cc.KruiseClient, astsInformer.Lister()),
			statefulSets:         statefulSets(cc.KubeClient, ssInformer.Lister()),
			deployments:          deployments(cc.KubeClient, depInformer.Lister()),
		},
		expect: expectations.NewScale(),
		status: podworkload.NewStatusWriter(statusAPI{cc.KruiseClient}),
		now:    time.Now,
	}
	c.loop = reconcile.NewLoop("uniteddeployment", c.sync, udInformer.Informer().HasSynced,
		csInformer.Informer().HasSynced, astsInformer.Informer().HasSynced, ssInformer.Informer().HasSynced,
		depInformer.Informer().HasSynced, podInformer.Informer().HasSynced, revInformer.Informer().HasSynced)
	if _, err := udInformer.Informer().AddEventHandler(c.loop.Handler()); err != nil {
		return nil, err
	}
	if _, err := udInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: func(obj interface{}) {
		if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
			c.expect.Forget(key)
		}
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		if ud, ok := obj.(*v1beta1.UnitedDeployment); ok {
			c.status.Forget(ud)
		}
	}}); err != nil {
		return nil, err
	}
	// A subset workload's change (its status above all) concerns its owner.
	for _, inf := range []cache.SharedIndexInformer{csInformer.Informer(), astsInformer.Informer(), ssInformer.Informer(), depInformer.Informer()} {
		if _, err := inf.AddEventHandler(controllerref.EnqueueOwner(ownerGroupKind, c.loop.Add)); err != nil {
			return nil, err
		}
		if _, err := inf.AddEventHandler(c.observeWorkloads()); err != nil {
			return nil, err
		}
	}
	// Pods matter only to Adaptive scheduling: whether a subset's pods get a node.
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onPod,
		UpdateFunc: func(_, cur interface{}) { c.onPod(cur) },
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// observeWorkloads marks the creations and deletions of subset workloads as seen.
func (c *Controller) observeWorkloads() cache.ResourceEventHandlerFuncs {
	observe := func(obj interface{}, action expectations.Action) {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		if m, ok := obj.(metav1.Object); ok {
			if key, ok := controllerref.OwnerKey(m, ownerGroupKind); ok {
				c.expect.Observe(key, action, m.GetName())
			}
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj interface{}) { observe(obj, expectations.Create) },
		DeleteFunc: func(obj interface{}) { observe(obj, expectations.Delete) },
	}
}

// onPod queues the Adaptive UnitedDeployments that select a subset pod.
func (c *Controller) onPod(obj interface{}) {
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod.Labels[SubsetLabel] == "" {
		return
	}
	uds, err := c.uds.UnitedDeployments(pod.Namespace).List(labels.Everything())
	if err != nil {
		return
	}
	for _, ud := range uds {
		if ud.Spec.Topology.ScheduleStrategy.Type != v1beta1.AdaptiveUnitedDeploymentScheduleStrategyType {
			continue
		}
		if sel, err := metav1.LabelSelectorAsSelector(ud.Spec.Selector); err == nil && sel.Matches(labels.Set(pod.Labels)) {
			c.loop.Enqueue(ud)
		}
	}
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.loop.HasSynced() }

// Run processes the queue until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) { c.loop.Run(ctx, workers) }
