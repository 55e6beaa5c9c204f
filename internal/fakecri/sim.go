package fakecri

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// KubeletSim plays kubelet on a kwok node over a Server. kwok decides pod phases and
// container readiness; the simulator makes the runtime match: for each pod of its node
// that kwok reports Running, one sandbox and one running container per spec container,
// with kubelet's labels and the env kubelet would resolve. It writes what only a
// runtime knows into pod status (containerID, and restartCount/lastState when it restarts
// a container that exited), restarts exited containers per the pod's restartPolicy,
// replaces a container whose image kwok reports changed, exits a running container kwok
// reports terminated (a job's main container ending while its sidecars run), stops the
// containers of a pod the API shows Succeeded or Failed and reports them terminated,
// and removes the sandboxes of pods that are deleted or terminal.
type KubeletSim struct {
	runtime  *Server
	client   kubernetes.Interface
	nodeName string
	// ResyncPeriod re-examines every pod of the node this often (a safety net; changes
	// to pods and runtime events trigger a sync at once). Set before Run.
	ResyncPeriod time.Duration
	// Workers is the number of pods synced in parallel. Set before Run.
	Workers int

	queue workqueue.TypedRateLimitingInterface[string]
	// pods is set once Run has its cache (podsMu: the exec handler reads it from
	// runtime calls that may come first).
	podsMu sync.Mutex
	pods   corelisters.PodLister

	// writtenFrom maps a pod key to the resourceVersion its last status write was computed
	// from. While the cache still shows that version, it has not seen the write yet, and a
	// sync must not write again from it (the event of the write syncs the pod anew).
	mu          sync.Mutex
	writtenFrom map[string]string
}

// NewKubeletSim returns a simulator for the pods bound to nodeName.
func NewKubeletSim(runtime *Server, client kubernetes.Interface, nodeName string) *KubeletSim {
	return &KubeletSim{
		runtime:      runtime,
		client:       client,
		nodeName:     nodeName,
		ResyncPeriod: time.Minute,
		Workers:      2,
		writtenFrom:  map[string]string{},
	}
}

// Run watches the node's pods and the runtime until ctx is done. It returns an error
// only when it cannot start (the pod cache never synced).
func (k *KubeletSim) Run(ctx context.Context) error {
	logger := klog.FromContext(ctx).WithValues("node", k.nodeName)
	ctx = klog.NewContext(ctx, logger)
	k.queue = workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](100*time.Millisecond, 10*time.Second),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "kubeletsim-" + k.nodeName})
	defer k.queue.ShutDown()

	factory := informers.NewSharedInformerFactoryWithOptions(k.client, k.ResyncPeriod,
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("spec.nodeName", k.nodeName).String()
		}))
	podInformer := factory.Core().V1().Pods()
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    k.enqueue,
		UpdateFunc: func(_, obj interface{}) { k.enqueue(obj) },
		DeleteFunc: k.enqueue,
	}); err != nil {
		return fmt.Errorf("kubeletsim: add pod handler: %w", err)
	}
	k.podsMu.Lock()
	k.pods = podInformer.Lister()
	k.podsMu.Unlock()

	// Subscribe before the first sync so no container exit goes unnoticed.
	events, unsubscribe := k.runtime.Subscribe()
	defer unsubscribe()

	factory.Start(ctx.Done())
	defer factory.Shutdown()
	if !cache.WaitForCacheSync(ctx.Done(), podInformer.Informer().HasSynced) {
		return fmt.Errorf("kubeletsim: pod cache of node %s did not sync: %w", k.nodeName, context.Cause(ctx))
	}
	// Sandboxes of pods deleted while nobody watched.
	for _, key := range k.runtime.podKeys() {
		k.queue.Add(key)
	}
	logger.Info("Kubelet simulator started", "workers", k.Workers)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); k.watchRuntime(ctx, events) }()
	for i := 0; i < max(k.Workers, 1); i++ {
		wg.Add(1)
		go func() { defer wg.Done(); k.worker(ctx) }()
	}
	<-ctx.Done()
	k.queue.ShutDown()
	unsubscribe()
	wg.Wait()
	logger.Info("Kubelet simulator stopped")
	return nil
}

func (k *KubeletSim) podLister() corelisters.PodLister {
	k.podsMu.Lock()
	defer k.podsMu.Unlock()
	return k.pods
}

func (k *KubeletSim) enqueue(obj interface{}) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	k.queue.Add(key)
}

// watchRuntime syncs a pod when something happens to its containers or sandbox in the
// runtime: above all a container exit (a node daemon stopping it to recreate it).
func (k *KubeletSim) watchRuntime(ctx context.Context, events <-chan Event) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			ns, name := ev.Labels[LabelPodNamespace], ev.Labels[LabelPodName]
			if ns == "" || name == "" {
				continue
			}
			switch ev.Type {
			case EventContainerExited, EventContainerRemoved, EventSandboxStopped, EventSandboxRemoved:
				k.queue.Add(ns + "/" + name)
			}
		}
	}
}

func (k *KubeletSim) worker(ctx context.Context) {
	for {
		key, quit := k.queue.Get()
		if quit {
			return
		}
		func() {
			defer k.queue.Done(key)
			logger := klog.FromContext(ctx).WithValues("pod", key)
			if err := k.syncPod(klog.NewContext(ctx, logger), key); err != nil {
				logger.V(2).Info("Pod sync failed, will retry", "err", err)
				k.queue.AddRateLimited(key)
				return
			}
			k.queue.Forget(key)
		}()
	}
}

// podFromCache returns the pod for key, or nil when it is gone.
func (k *KubeletSim) podFromCache(namespace, name string) (*corev1.Pod, error) {
	pod, err := k.pods.Pods(namespace).Get(name)
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("get pod %s/%s from cache: %w", namespace, name, err)
	}
	return pod, nil
}

// cacheBehindWrite reports whether pod is the version a status write of ours started
// from, i.e. the cache has not caught up with that write yet.
func (k *KubeletSim) cacheBehindWrite(key string, pod *corev1.Pod) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	from, ok := k.writtenFrom[key]
	return ok && pod != nil && pod.ResourceVersion != "" && from == pod.ResourceVersion
}

// recordWrite remembers the version a write started from; "" forgets the pod.
func (k *KubeletSim) recordWrite(key, fromResourceVersion string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if fromResourceVersion == "" {
		delete(k.writtenFrom, key)
		return
	}
	k.writtenFrom[key] = fromResourceVersion
}
