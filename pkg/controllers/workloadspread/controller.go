// Package workloadspread reconciles WorkloadSpreads (workloadspreads.apps.kruise.io):
// it counts the pods of the target workload per subset and writes subsetStatuses
// (missingReplicas, creatingPods cleared once the pod is seen or expired,
// deletingPods), sets each pod's pod-deletion-cost so scale-down empties the last
// subsets first, counts pods created before the spread in the subset their node
// matches, and under Adaptive marks a subset whose pod stays unschedulable and
// deletes that pod, so its workload recreates it and the webhook places it elsewhere.
// The rules are pure functions in pkg/workloadspread.
//
// kruise-apiserver's pod webhook reserves slots between syncs by writing the same
// status; both write with the resourceVersion they read, so neither overwrites the
// other.
package workloadspread

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/workloadtarget"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	appslisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "workloadspread-controller"

// Controller reconciles WorkloadSpreads.
type Controller struct {
	kube     kubernetes.Interface
	kruise   kruiseclient.Interface
	targets  workloadtarget.Client
	recorder record.EventRecorder
	spreads  appslisters.WorkloadSpreadLister
	pods     corelisters.PodLister
	nodes    corelisters.NodeLister
	loop     *reconcile.Loop
	now      func() time.Time
}

// New builds the controller on the shared informers. Targets are read live on each
// sync (one GET), as PodUnavailableBudget does: pod events follow every change of a
// target's replicas that matters.
func New(ctx context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	wsInformer := cc.KruiseInformers.Apps().V1beta1().WorkloadSpreads()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	nodeInformer := cc.KubeInformers.Core().V1().Nodes()
	c := &Controller{
		kube:     cc.KubeClient,
		kruise:   cc.KruiseClient,
		targets:  workloadtarget.Client{Kube: cc.KubeClient, Kruise: cc.KruiseClient},
		recorder: cc.Recorder(ControllerName),
		spreads:  wsInformer.Lister(),
		pods:     podInformer.Lister(),
		nodes:    nodeInformer.Lister(),
		now:      time.Now,
	}
	c.loop = reconcile.NewLoop("workloadspread", c.sync, wsInformer.Informer().HasSynced,
		podInformer.Informer().HasSynced, nodeInformer.Informer().HasSynced)
	if _, err := wsInformer.Informer().AddEventHandler(c.loop.Handler()); err != nil {
		return nil, err
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

// Run processes the queue until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) { c.loop.Run(ctx, workers) }

// onPod queues every WorkloadSpread of the pod's namespace: namespaces hold few, and
// telling which target the pod would need each target's selector.
func (c *Controller) onPod(obj interface{}) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	o, ok := obj.(metav1.Object)
	if !ok {
		return
	}
	if _, isPod := obj.(*corev1.Pod); !isPod {
		return
	}
	spreads, err := c.spreads.WorkloadSpreads(o.GetNamespace()).List(labels.Everything())
	if err != nil {
		return
	}
	for _, ws := range spreads {
		c.loop.Enqueue(ws)
	}
}
