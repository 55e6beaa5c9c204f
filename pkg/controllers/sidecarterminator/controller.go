// Package sidecarterminator is OpenKruise's SidecarTerminator (feature gate
// SidecarTerminator, off by default): a restartPolicy Never or OnFailure pod whose
// main containers have finished while its marked sidecars (env
// KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT=true, typically injected by a SidecarSet)
// still run would never complete, and neither would its Job or BroadcastJob. This
// controller ends such a pod: it writes the phase the main containers earned
// (Succeeded when all exited 0, else Failed) and the condition SidecarTerminated to
// the pod's status, in one patch carrying the resourceVersion it decided on.
//
// The kubelet does the rest: it never moves a pod out of a terminal phase the API
// shows, and stops the containers of such a pod (kubelet SyncPod returns isTerminal for
// an API phase Succeeded/Failed), so the sidecars are stopped and reported
// terminated; their exit codes do not change the phase. OpenKruise does the same
// (since v1.5) and then also creates a ContainerRecreateRequest to kill the sidecars;
// here a request for a finished pod is refused at admission, and the kubelet's stop
// makes it redundant, so none is created.
package sidecarterminator

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
)

// ControllerName is the field manager and event source of this controller.
const ControllerName = "sidecarterminator-controller"

// Controller ends pods whose main containers have finished.
type Controller struct {
	kubeClient kubernetes.Interface
	pods       corelisters.PodLister
	recorder   record.EventRecorder
	loop       *reconcile.Loop
}

// New builds the controller. It runs only while the SidecarTerminator gate is on
// (manager.Gated in pkg/controllers).
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	podInformer := cc.KubeInformers.Core().V1().Pods()
	c := &Controller{
		kubeClient: cc.KubeClient,
		pods:       podInformer.Lister(),
		recorder:   cc.Recorder(ControllerName),
	}
	c.loop = reconcile.NewLoop("sidecarterminator", c.sync, podInformer.Informer().HasSynced)
	// Only pods the rule would end are queued: the rule is cheap, and almost every pod
	// event is of a pod it leaves alone.
	onPod := func(obj interface{}) {
		if pod, ok := obj.(*corev1.Pod); ok && Decide(pod).End {
			c.loop.Enqueue(pod)
		}
	}
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: onPod, UpdateFunc: func(_, obj interface{}) { onPod(obj) },
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
func (c *Controller) Run(ctx context.Context, workers int) { c.loop.Run(ctx, workers) }

func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	pod, err := c.pods.Pods(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	a := Decide(pod)
	if !a.End {
		return 0, nil
	}
	patch, err := statusPatch(pod, a.Phase, metav1.Now())
	if err != nil {
		return 0, err
	}
	_, err = c.kubeClient.CoreV1().Pods(ns).Patch(ctx, name, types.StrategicMergePatchType, patch,
		metav1.PatchOptions{FieldManager: ControllerName}, "status")
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return 0, nil // the pod changed (or went) since: its event decides again
	}
	if err != nil {
		return 0, fmt.Errorf("ending pod %s: %w", key, err)
	}
	klog.FromContext(ctx).V(2).Info("Ended pod whose main containers finished", "pod", klog.KObj(pod), "phase", a.Phase, "sidecars", a.Sidecars)
	c.recorder.Eventf(pod, corev1.EventTypeNormal, "SidecarTerminator",
		"Main containers finished: pod ended as %s, its kubelet stops sidecars %v", a.Phase, a.Sidecars)
	return 0, nil
}

// statusPatch is the strategic merge patch of pods/status that ends pod: the phase and
// the SidecarTerminated condition (merged by type). Its uid and resourceVersion make it
// fail rather than land on a pod recreated under the name or on a status the kubelet
// changed since the decision (it may have ended the pod itself).
func statusPatch(pod *corev1.Pod, phase corev1.PodPhase, now metav1.Time) ([]byte, error) {
	return json.Marshal(map[string]any{
		"metadata": map[string]any{"uid": pod.UID, "resourceVersion": pod.ResourceVersion},
		"status": map[string]any{
			"phase": phase,
			"conditions": []corev1.PodCondition{{
				Type:               v1alpha1.SidecarTerminatedCondition,
				Status:             corev1.ConditionTrue,
				LastTransitionTime: now,
				Message:            "Terminated by Sidecar Terminator",
			}},
		},
	})
}
