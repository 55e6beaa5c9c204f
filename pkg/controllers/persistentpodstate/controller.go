// Package persistentpodstate reconciles PersistentPodStates
// (persistentpodstates.apps.kruise.io): it records in status.podStates the node and the
// node topology labels of each ready pod of the target StatefulSet (apps/v1 or
// Advanced), drops the records of pods scaled away (WhenScaled) or of a deleted
// workload, and creates, updates and deletes the PersistentPodStates that workload
// annotations ask for (kruise.io/auto-generate-persistent-pod-state), controlled by the
// workload. kruise-apiserver's pod webhook turns a record into node affinity when the
// pod is created again. The rules are pure functions in pkg/persistentpodstate.
package persistentpodstate

import (
	"context"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "persistentpodstate-controller"

// The workload kinds, by group.
var (
	kubeStatefulSet   = schema.GroupKind{Group: appsv1.GroupName, Kind: "StatefulSet"}
	kruiseStatefulSet = schema.GroupKind{Group: apps.GroupName, Kind: "StatefulSet"}
)

// Controller reconciles PersistentPodStates and generates them from workloads.
type Controller struct {
	kube     kubernetes.Interface
	kruise   kruiseclient.Interface
	recorder record.EventRecorder
	states   kruiselisters.PersistentPodStateLister
	// The kinds a PersistentPodState may target (getWorkload).
	advancedStatefulSets kruiselisters.StatefulSetLister
	statefulSets         appslisters.StatefulSetLister
	// pods indexes pods by controller (podindex, which the manager adds).
	pods      cache.Indexer
	nodes     corelisters.NodeLister
	loop      *reconcile.Loop // PersistentPodStates, by namespace/name
	generator *reconcile.Loop // workloads, by workloadKey
}

// New builds the controller on the shared informers.
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	ppsInformer := cc.KruiseInformers.Apps().V1beta1().PersistentPodStates()
	astsInformer := cc.KruiseInformers.Apps().V1beta1().StatefulSets()
	stsInformer := cc.KubeInformers.Apps().V1().StatefulSets()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	nodeInformer := cc.KubeInformers.Core().V1().Nodes()
	c := &Controller{
		kube:                 cc.KubeClient,
		kruise:               cc.KruiseClient,
		recorder:             cc.Recorder(ControllerName),
		states:               ppsInformer.Lister(),
		advancedStatefulSets: astsInformer.Lister(),
		statefulSets:         stsInformer.Lister(),
		pods:                 podInformer.Informer().GetIndexer(),
		nodes:                nodeInformer.Lister(),
	}
	synced := []cache.InformerSynced{ppsInformer.Informer().HasSynced, astsInformer.Informer().HasSynced,
		stsInformer.Informer().HasSynced, podInformer.Informer().HasSynced, nodeInformer.Informer().HasSynced}
	c.loop = reconcile.NewLoop("persistentpodstate", c.sync, synced...)
	c.generator = reconcile.NewLoop("persistentpodstate-generator", c.generate, synced...)
	if _, err := ppsInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onState,
		UpdateFunc: func(_, cur interface{}) { c.onState(cur) },
		DeleteFunc: c.onState,
	}); err != nil {
		return nil, err
	}
	for gk, inf := range map[schema.GroupKind]cache.SharedIndexInformer{kruiseStatefulSet: astsInformer.Informer(), kubeStatefulSet: stsInformer.Informer()} {
		gk := gk
		if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj interface{}) { c.onWorkload(gk, obj) },
			UpdateFunc: func(_, cur interface{}) { c.onWorkload(gk, cur) },
			DeleteFunc: func(obj interface{}) { c.onWorkload(gk, obj) },
		}); err != nil {
			return nil, err
		}
	}
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onPod,
		UpdateFunc: func(_, cur interface{}) { c.onPod(cur) },
		DeleteFunc: c.onPod,
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.loop.HasSynced() }

// Run processes both queues until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); c.generator.Run(ctx, 1) }()
	c.loop.Run(ctx, workers)
	wg.Wait()
}

// onState queues a PersistentPodState, and the workload of a generated one (a
// generated object deleted or edited by hand is put back).
func (c *Controller) onState(obj interface{}) {
	c.loop.Enqueue(obj)
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	pps, ok := obj.(*appsv1beta1.PersistentPodState)
	if !ok {
		return
	}
	if ref := metav1.GetControllerOf(pps); ref != nil && ref.Kind == "StatefulSet" {
		if gv, err := schema.ParseGroupVersion(ref.APIVersion); err == nil {
			c.generator.Add(workloadKey(gv.WithKind(ref.Kind).GroupKind(), pps.Namespace, ref.Name))
		}
	}
}

// onWorkload queues the workload for generation and the PersistentPodStates naming it
// (replicas, reserved ordinals or deletion change which records are kept).
func (c *Controller) onWorkload(gk schema.GroupKind, obj interface{}) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	o, ok := obj.(metav1.Object)
	if !ok {
		return
	}
	c.generator.Add(workloadKey(gk, o.GetNamespace(), o.GetName()))
	c.enqueueTargeting(gk, o.GetNamespace(), o.GetName())
}

// onPod queues the PersistentPodStates of the pod's controlling StatefulSet.
func (c *Controller) onPod(obj interface{}) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	ref := metav1.GetControllerOf(pod)
	if ref == nil || ref.Kind != "StatefulSet" {
		return
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return
	}
	c.enqueueTargeting(gv.WithKind(ref.Kind).GroupKind(), pod.Namespace, ref.Name)
}

func (c *Controller) enqueueTargeting(gk schema.GroupKind, ns, name string) {
	states, err := c.states.PersistentPodStates(ns).List(labels.Everything())
	if err != nil {
		return
	}
	for _, pps := range states {
		if targets(pps, gk, name) {
			c.loop.Enqueue(pps)
		}
	}
}

// targets reports whether pps names the workload (any version of its group).
func targets(pps *appsv1beta1.PersistentPodState, gk schema.GroupKind, name string) bool {
	ref := pps.Spec.TargetReference
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	return err == nil && ref.Name == name && gv.WithKind(ref.Kind).GroupKind() == gk
}
