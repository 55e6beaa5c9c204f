// Package podprobemarker turns PodProbeMarkers (podprobemarkers.apps.kruise.io) into
// one NodePodProbe per node and writes the probe results the node daemons report back
// onto the pods.
//
// Two loops share the informers. The node loop (key: node name) writes a node's
// NodePodProbe spec (the probed pods on it and the probes of every marker selecting
// them; plan.go), deletes it with its node, and then marks each pod of its status:
// the marker policy's labels and annotations of the probe's state and the condition
// podConditionType, in one strategic merge patch to pods/status (kube accepts the
// metadata there). A pod is written only when a result changed what it should carry,
// never per probe period: the daemon writes a NodePodProbe's status on changes only,
// and a pod already marked yields no patch. The marker loop (key: namespace/name)
// writes a marker's status (matchedPods, observedGeneration).
//
// One writer per field: the spec of a NodePodProbe is this controller's, its status
// the node daemon's (pkg/nodedaemon/podprobe); kruise-apiserver lets a daemon write
// only its own node's status.
package podprobemarker

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = "podprobemarker-controller"

// nodeIndex indexes pods by spec.nodeName.
const nodeIndex = "podprobemarker.nodeName"

// Controller reconciles NodePodProbe specs, pod marks and PodProbeMarker statuses.
type Controller struct {
	kube    kubernetes.Interface
	kruise  kruiseclient.Interface
	patcher podpatch.Patcher

	markers    kruiselisters.PodProbeMarkerLister
	nodeProbes kruiselisters.NodePodProbeLister
	nodes      corelisters.NodeLister
	pods       corelisters.PodLister
	podIndexer cache.Indexer

	// written holds pods and NodePodProbes this controller wrote until the cache has
	// the write: a sync on the older cached object would write the same again.
	written *expectations.ResourceVersion

	nodeLoop   *reconcile.Loop
	markerLoop *reconcile.Loop
}

// New builds the controller on the shared informers.
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	ppmInformer := cc.KruiseInformers.Apps().V1alpha1().PodProbeMarkers()
	nppInformer := cc.KruiseInformers.Apps().V1alpha1().NodePodProbes()
	nodeInformer := cc.KubeInformers.Core().V1().Nodes()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	if _, ok := podInformer.Informer().GetIndexer().GetIndexers()[nodeIndex]; !ok {
		if err := podInformer.Informer().AddIndexers(cache.Indexers{nodeIndex: podNode}); err != nil {
			return nil, fmt.Errorf("pod node index: %w", err)
		}
	}
	c := &Controller{
		kube:       cc.KubeClient,
		kruise:     cc.KruiseClient,
		patcher:    podpatch.New(cc.KubeClient.CoreV1(), ControllerName),
		markers:    ppmInformer.Lister(),
		nodeProbes: nppInformer.Lister(),
		nodes:      nodeInformer.Lister(),
		pods:       podInformer.Lister(),
		podIndexer: podInformer.Informer().GetIndexer(),
		written:    expectations.NewResourceVersion(),
	}
	synced := []cache.InformerSynced{ppmInformer.Informer().HasSynced, nppInformer.Informer().HasSynced,
		nodeInformer.Informer().HasSynced, podInformer.Informer().HasSynced}
	c.nodeLoop = reconcile.NewLoop("nodepodprobe", c.syncNode, synced...)
	c.markerLoop = reconcile.NewLoop("podprobemarker", c.syncMarker, synced...)

	if _, err := ppmInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.onMarker,
		// old and cur share key and namespace: the same marker and nodes are queued
		UpdateFunc: func(_, cur interface{}) { c.onMarker(cur) },
		DeleteFunc: c.onMarker,
	}); err != nil {
		return nil, err
	}
	if _, err := nppInformer.Informer().AddEventHandler(c.nodeLoop.Handler()); err != nil {
		return nil, err
	}
	if _, err := nodeInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.nodeLoop.Enqueue,
	}); err != nil {
		return nil, err
	}
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj interface{}) { c.onPod(podOf(obj)) },
		UpdateFunc: func(old, cur interface{}) { c.onPod(podOf(old), podOf(cur)) },
		DeleteFunc: func(obj interface{}) { c.onPod(podOf(obj)) },
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.nodeLoop.HasSynced() }

// Run processes both queues until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) {
	go c.markerLoop.Run(ctx, 1)
	c.nodeLoop.Run(ctx, workers)
}

func podNode(obj interface{}) ([]string, error) {
	if pod, ok := obj.(*corev1.Pod); ok && pod.Spec.NodeName != "" {
		return []string{pod.Spec.NodeName}, nil
	}
	return nil, nil
}

func podOf(obj interface{}) *corev1.Pod {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	pod, _ := obj.(*corev1.Pod)
	return pod
}

// onPod queues the pod's node (its NodePodProbe and marks) and the markers of its
// namespace that select it (their matchedPods), when any marker selects it. An update
// passes the old and the new pod: the markers of the namespace are listed once for
// both.
func (c *Controller) onPod(pods ...*corev1.Pod) {
	if pods[0] == nil {
		return
	}
	markers, err := c.markers.PodProbeMarkers(pods[0].Namespace).List(labels.Everything())
	if err != nil {
		return
	}
	for _, pod := range pods {
		if pod == nil {
			continue
		}
		selected := false
		for _, m := range markers {
			if selects(m, pod) {
				selected = true
				c.markerLoop.Enqueue(m)
			}
		}
		// A pod no marker selects any more may still be in its node's spec: the node
		// looks at it if the NodePodProbe lists it.
		if pod.Spec.NodeName != "" && (selected || c.listed(pod)) {
			c.nodeLoop.Add(pod.Spec.NodeName)
		}
	}
}

// listed reports whether the pod's node's NodePodProbe lists the pod.
func (c *Controller) listed(pod *corev1.Pod) bool {
	npp, err := c.nodeProbes.Get(pod.Spec.NodeName)
	if err != nil {
		return false
	}
	for _, pp := range npp.Spec.PodProbes {
		if pp.UID == string(pod.UID) {
			return true
		}
	}
	return false
}

// onMarker queues the marker and the nodes of the pods of its namespace (a changed
// or deleted marker changes their probes).
func (c *Controller) onMarker(obj interface{}) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	m, ok := obj.(*v1alpha1.PodProbeMarker)
	if !ok {
		return
	}
	c.markerLoop.Enqueue(m)
	pods, err := c.pods.Pods(m.Namespace).List(labels.Everything())
	if err != nil {
		return
	}
	nodes := map[string]bool{}
	for _, p := range pods {
		if p.Spec.NodeName != "" && !nodes[p.Spec.NodeName] {
			nodes[p.Spec.NodeName] = true
			c.nodeLoop.Add(p.Spec.NodeName)
		}
	}
}

// syncNode writes the node's NodePodProbe spec, then marks the pods of its status.
func (c *Controller) syncNode(ctx context.Context, node string) (time.Duration, error) {
	npp, err := c.syncNodeSpec(ctx, node)
	if err != nil || npp == nil {
		return 0, err
	}
	return 0, c.markPods(ctx, npp)
}

func (c *Controller) lookupMarker(namespace, name string) *v1alpha1.PodProbeMarker {
	m, err := c.markers.PodProbeMarkers(namespace).Get(name)
	if err != nil {
		return nil
	}
	return m
}

// isNotFound: a pod or NodePodProbe that went away between cache and write needs no write.
func isNotFound(err error) bool { return apierrors.IsNotFound(err) }
