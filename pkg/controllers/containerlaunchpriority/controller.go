// Package containerlaunchpriority opens the launch barriers the pod webhook puts on
// containers: each container of a pod with a launch priority reads its priority's key of
// the ConfigMap <pod>-barrier, and the kubelet cannot start it while the key is missing.
// This controller creates the ConfigMap (owned by the pod, so it goes with it) with the
// highest priority's key, and adds each next key once the containers before are ready.
package containerlaunchpriority

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the field manager of this controller.
const ControllerName = "containerlaunchpriority-controller"

// barrierLabel marks the barrier ConfigMaps, so that only they are watched.
const barrierLabel = "kruise.io/container-launch-barrier"

// Controller opens launch barriers.
type Controller struct {
	kubeClient kubernetes.Interface
	pods       corelisters.PodLister
	configMaps corelisters.ConfigMapLister
	cmFactory  kubeinformers.SharedInformerFactory
	loop       *reconcile.Loop
}

// New builds the controller: pods from the shared informers, and its own informer on
// the barrier ConfigMaps only (a watch on every ConfigMap of the cluster would cost far
// more than the few it writes).
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	podInformer := cc.KubeInformers.Core().V1().Pods()
	cmFactory := kubeinformers.NewSharedInformerFactoryWithOptions(cc.KubeClient, 0,
		kubeinformers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = barrierLabel + "=true" }))
	cmInformer := cmFactory.Core().V1().ConfigMaps()
	c := &Controller{
		kubeClient: cc.KubeClient,
		pods:       podInformer.Lister(),
		configMaps: cmInformer.Lister(),
		cmFactory:  cmFactory,
	}
	c.loop = reconcile.NewLoop("containerlaunchpriority", c.sync, podInformer.Informer().HasSynced, cmInformer.Informer().HasSynced)
	onPod := func(obj interface{}) {
		if pod, ok := obj.(*corev1.Pod); ok && pod.DeletionTimestamp == nil {
			if _, waits := containerPriorities(pod); waits {
				c.loop.Enqueue(pod)
			}
		}
	}
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: onPod, UpdateFunc: func(_, obj interface{}) { onPod(obj) },
	}); err != nil {
		return nil, err
	}
	// A ConfigMap the cache did not have yet (create refused as existing) syncs its pod again.
	onConfigMap := func(obj interface{}) {
		if cm, ok := obj.(*corev1.ConfigMap); ok {
			for _, ref := range cm.OwnerReferences {
				if ref.Kind == "Pod" {
					c.loop.Add(cm.Namespace + "/" + ref.Name)
				}
			}
		}
	}
	if _, err := cmInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: onConfigMap, UpdateFunc: func(_, obj interface{}) { onConfigMap(obj) },
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name implements manager.Controller.
func (c *Controller) Name() string { return ControllerName }

// HasSynced implements manager.Controller.
func (c *Controller) HasSynced() bool { return c.loop.HasSynced() }

// Run implements manager.Controller.
func (c *Controller) Run(ctx context.Context, workers int) {
	c.cmFactory.Start(ctx.Done())
	defer c.cmFactory.Shutdown()
	c.loop.Run(ctx, workers)
}

func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	pod, err := c.pods.Pods(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil // the garbage collector removes its ConfigMap
	}
	if err != nil || pod.DeletionTimestamp != nil {
		return 0, err
	}
	priorities, waits := containerPriorities(pod)
	if !waits {
		return 0, nil
	}
	want := releasedKeys(pod, priorities)
	cmName := pub.ContainerLaunchBarrierConfigMap(pod.Name)
	cm, err := c.configMaps.ConfigMaps(ns).Get(cmName)
	switch {
	case apierrors.IsNotFound(err):
		return 0, c.create(ctx, pod, cmName, want)
	case err != nil:
		return 0, err
	}
	var missing []string
	for _, k := range want {
		if _, ok := cm.Data[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) == 0 {
		return 0, nil
	}
	return 0, c.addKeys(ctx, cm, missing)
}

func (c *Controller) create(ctx context.Context, pod *corev1.Pod, name string, keys []string) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: pod.Namespace,
			Labels: map[string]string{barrierLabel: "true"},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: pod.UID,
			}},
		},
		Data: map[string]string{},
	}
	for _, k := range keys {
		cm.Data[k] = "true"
	}
	_, err := c.kubeClient.CoreV1().ConfigMaps(pod.Namespace).Create(ctx, cm, metav1.CreateOptions{FieldManager: ControllerName})
	if apierrors.IsAlreadyExists(err) {
		return nil // the cache is behind; the ConfigMap's own event syncs again
	}
	if err != nil {
		return fmt.Errorf("creating launch barrier %s/%s: %w", pod.Namespace, name, err)
	}
	klog.FromContext(ctx).V(2).Info("Created launch barrier", "configMap", klog.KObj(cm), "keys", keys)
	return nil
}

func (c *Controller) addKeys(ctx context.Context, cm *corev1.ConfigMap, keys []string) error {
	data := map[string]string{}
	for _, k := range keys {
		data[k] = "true"
	}
	patch, err := json.Marshal(map[string]any{"data": data})
	if err != nil {
		return err
	}
	_, err = c.kubeClient.CoreV1().ConfigMaps(cm.Namespace).Patch(ctx, cm.Name, types.MergePatchType, patch,
		metav1.PatchOptions{FieldManager: ControllerName})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("opening launch barrier %s/%s: %w", cm.Namespace, cm.Name, err)
	}
	klog.FromContext(ctx).V(2).Info("Opened launch barrier", "configMap", klog.KObj(cm), "keys", keys)
	return nil
}
