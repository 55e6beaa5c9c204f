// Package podunavailablebudget reconciles PodUnavailableBudgets
// (podunavailablebudgets.policy.kruise.io): it counts the pods a budget guards — the
// pods of its targetRef workload, whose spec.replicas is the total, or the pods its
// selector selects — and writes unavailableAllowed, currentAvailable,
// desiredAvailable and totalReplicas, forgetting the disruptions kruise-apiserver's
// pod webhook recorded once they are seen through (see pkg/podbudget for the rules),
// and names itself on the pods it guards (kruise.io/related-pub, related.go).
//
// The webhook spends the budget between syncs by writing the same status; both write
// with the resourceVersion they read, so neither overwrites the other.
package podunavailablebudget

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/workloadtarget"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	policylisters "github.com/kruise-native/kruise-native/pkg/generated/listers/policy/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "podunavailablebudget-controller"

// Controller reconciles PodUnavailableBudgets.
type Controller struct {
	kruiseClient kruiseclient.Interface
	targets      targetReader
	recorder     record.EventRecorder
	pubs         policylisters.PodUnavailableBudgetLister
	pods         corelisters.PodLister
	podPatcher   podpatch.Patcher
	loop         *reconcile.Loop
	now          func() time.Time
}

// New builds the controller on the shared informers. Targets are read live on each
// sync (one GET): a pod event follows every change of a target's replicas that
// matters (pods are created or deleted), so a cache of every workload is not worth
// its memory.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	pubInformer := cc.KruiseInformers.Policy().V1beta1().PodUnavailableBudgets()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	c := &Controller{
		kruiseClient: cc.KruiseClient,
		targets:      clientTargets{workloadtarget.Client{Kube: cc.KubeClient, Kruise: cc.KruiseClient}},
		recorder:     cc.Recorder(ControllerName),
		pubs:         pubInformer.Lister(),
		pods:         podInformer.Lister(),
		podPatcher:   podpatch.New(cc.KubeClient.CoreV1(), ControllerName),
		now:          time.Now,
	}
	c.loop = reconcile.NewLoop("podunavailablebudget", c.sync, pubInformer.Informer().HasSynced, podInformer.Informer().HasSynced)
	if _, err := pubInformer.Informer().AddEventHandler(c.loop.Handler()); err != nil {
		return nil, err
	}
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onPod,
		UpdateFunc: func(_, cur interface{}) { c.onPod(cur) },
		DeleteFunc: c.onPod,
	}); err != nil {
		return nil, err
	}
	// Kruise targets are in kruise-controller's caches anyway: a budget follows their
	// replicas (and their deletion, after which the garbage collector must be let
	// through) at once. apps/v1 targets are polled (targetPoll).
	workloads := cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onWorkload,
		UpdateFunc: func(_, cur interface{}) { c.onWorkload(cur) },
		DeleteFunc: c.onWorkload,
	}
	for _, inf := range []cache.SharedIndexInformer{
		cc.KruiseInformers.Apps().V1beta1().CloneSets().Informer(),
		cc.KruiseInformers.Apps().V1beta1().StatefulSets().Informer(),
	} {
		if _, err := inf.AddEventHandler(workloads); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// onWorkload queues the budgets of a Kruise workload's namespace.
func (c *Controller) onWorkload(obj interface{}) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if o, ok := obj.(metav1.Object); ok {
		c.enqueueNamespace(o.GetNamespace())
	}
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.loop.HasSynced() }

// Run processes the queue until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) { c.loop.Run(ctx, workers) }

// onPod queues every budget of the pod's namespace: namespaces hold few budgets, and
// telling which cover the pod would need each target's selector.
func (c *Controller) onPod(obj interface{}) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	c.enqueueNamespace(pod.Namespace)
}

func (c *Controller) enqueueNamespace(ns string) {
	pubs, err := c.pubs.PodUnavailableBudgets(ns).List(labels.Everything())
	if err != nil {
		return
	}
	for _, p := range pubs {
		c.loop.Enqueue(p)
	}
}
