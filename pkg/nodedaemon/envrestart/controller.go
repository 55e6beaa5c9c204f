package envrestart

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	grpcstatus "google.golang.org/grpc/status"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/containerrecreate"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/metrics"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// criTimeout bounds one ContainerStatus call.
const criTimeout = 10 * time.Second

// Controller restarts containers of its node's pods for env from metadata, and reports
// what runs.
type Controller struct {
	kube     kubernetes.Interface
	runtime  runtimeapi.RuntimeServiceClient
	exec     *containerrecreate.Executor
	recorder record.EventRecorder
	pods     corelisters.PodLister
	synced   cache.InformerSynced
	loop     *reconcile.Loop
}

// New returns a controller over the node's pod informer. recorder may be nil.
func New(kube kubernetes.Interface, podInformer coreinformers.PodInformer, runtime runtimeapi.RuntimeServiceClient,
	recorder record.EventRecorder) (*Controller, error) {
	if recorder == nil {
		recorder = &record.FakeRecorder{}
	}
	c := &Controller{
		kube:     kube,
		runtime:  runtime,
		exec:     &containerrecreate.Executor{Runtime: runtime},
		recorder: recorder,
		pods:     podInformer.Lister(),
		synced:   podInformer.Informer().HasSynced,
	}
	c.loop = reconcile.NewLoop("envrestart", func(ctx context.Context, key string) (time.Duration, error) { return 0, c.sync(ctx, key) }, podInformer.Informer().HasSynced)
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onPod,
		UpdateFunc: func(_, obj interface{}) { c.onPod(obj) },
	}); err != nil {
		return nil, fmt.Errorf("envrestart: add pod handler: %w", err)
	}
	return c, nil
}

// onPod queues pods whose in-place update may ask for env from metadata; the string
// test keeps every other pod event free of JSON parsing.
func (c *Controller) onPod(obj interface{}) {
	pod, ok := obj.(*corev1.Pod)
	if !ok || !strings.Contains(pod.Annotations[pub.InPlaceUpdateStateKey], `"updateEnvFromMetadata":true`) {
		return
	}
	key, err := cache.MetaNamespaceKeyFunc(pod)
	if err == nil {
		c.loop.Add(key)
	}
}

// HasSynced reports whether the pod informer has synced.
func (c *Controller) HasSynced() bool { return c.synced() }

// Run processes pods with workers goroutines until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) error {
	if !cache.WaitForCacheSync(ctx.Done(), c.synced) {
		return fmt.Errorf("envrestart: pod cache did not sync: %w", context.Cause(ctx))
	}
	klog.FromContext(ctx).Info("Env-from-metadata restarts started", "workers", workers)
	c.loop.Run(ctx, workers)
	return nil
}

func (c *Controller) sync(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	pod, err := c.pods.Pods(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if pod.DeletionTimestamp != nil || pod.Status.Phase != corev1.PodRunning {
		return nil
	}
	running, err := c.running(ctx, pod)
	if err != nil {
		return err
	}
	plan, err := PlanPod(pod, running)
	if err != nil {
		// A state annotation nobody can read: nothing to act on until it changes.
		klog.FromContext(ctx).Info("Ignoring the pod's in-place update state", "err", err)
		return nil
	}
	if len(plan.Restart) > 0 {
		c.restart(ctx, pod, plan.Restart)
		return nil // the kubelet's restart changes the pod status, which syncs again
	}
	if plan.Report == "" {
		return nil
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]string{RuntimeContainerMetaKey: plan.Report}}})
	if err != nil {
		return err
	}
	if _, err := c.kube.CoreV1().Pods(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("reporting the running containers of pod %s: %w", key, err)
	}
	klog.FromContext(ctx).V(2).Info("Reported running containers", "value", plan.Report)
	return nil
}

// running reads, for each container reading metadata that the pod status shows
// running, the env the runtime runs it with. A container the runtime no longer runs
// (stopped, being restarted) is left out.
func (c *Controller) running(ctx context.Context, pod *corev1.Pod) (map[string]Running, error) {
	out := map[string]Running{}
	for i := range pod.Spec.Containers {
		ctr := &pod.Spec.Containers[i]
		cs := containerStatus(pod, ctr.Name)
		if !readsMetadata(ctr) || cs == nil || cs.ContainerID == "" || cs.State.Running == nil {
			continue
		}
		callCtx, cancel := context.WithTimeout(ctx, criTimeout)
		resp, err := c.runtime.ContainerStatus(callCtx, &runtimeapi.ContainerStatusRequest{
			ContainerId: criclient.SplitContainerID(cs.ContainerID), Verbose: true})
		cancel()
		if grpcstatus.Code(err) == codes.NotFound {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("status of container %s (%s): %w", ctr.Name, cs.ContainerID, err)
		}
		if resp.GetStatus().GetState() != runtimeapi.ContainerState_CONTAINER_RUNNING {
			continue
		}
		env, err := envFromInfo(resp.GetInfo())
		if err != nil {
			return nil, fmt.Errorf("env of container %s (%s): %w", ctr.Name, cs.ContainerID, err)
		}
		out[ctr.Name] = Running{ContainerID: cs.ContainerID, Env: env}
	}
	return out, nil
}

// restart stops the containers (in parallel, each with its preStop hook and the pod's
// grace period, as the kubelet would); the kubelet starts them again.
func (c *Controller) restart(ctx context.Context, pod *corev1.Pod, restarts []Restart) {
	grace := containerrecreate.DefaultGracePeriod
	if g := pod.Spec.TerminationGracePeriodSeconds; g != nil && *g >= 0 {
		grace = time.Duration(*g) * time.Second
	}
	var wg sync.WaitGroup
	for _, r := range restarts {
		order := containerrecreate.StopOrder{Name: r.Name, ContainerID: r.ContainerID, GracePeriod: grace}
		for i := range pod.Spec.Containers {
			if ctr := &pod.Spec.Containers[i]; ctr.Name == r.Name {
				order.Ports = ctr.Ports
				if ctr.Lifecycle != nil && ctr.Lifecycle.PreStop != nil {
					h := ctr.Lifecycle.PreStop
					order.PreStop = &v1alpha1.ProbeHandler{Exec: h.Exec, HTTPGet: h.HTTPGet, TCPSocket: h.TCPSocket}
				}
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := c.exec.Stop(ctx, pod, order)
			if res.Err != nil {
				metrics.EnvRestarts.WithLabelValues("failed").Inc()
				c.recorder.Eventf(pod, corev1.EventTypeWarning, "FailedRestartForEnv", "Container %s: %v", r.Name, res.Err)
				return
			}
			metrics.EnvRestarts.WithLabelValues("stopped").Inc()
			klog.FromContext(ctx).Info("Restarted container for env from changed pod metadata", "container", r.Name, "containerID", r.ContainerID)
			c.recorder.Eventf(pod, corev1.EventTypeNormal, "RestartForEnv",
				"Stopped container %s: its env reads pod labels/annotations the in-place update changed", r.Name)
		}()
	}
	wg.Wait()
}
