// Package containerrecreaterequest drives ContainerRecreateRequests on the cluster
// side; the node daemon of the pod's node does the recreating. This controller starts
// requests (Pending), takes the pod out of service first when asked to
// (unreadyGracePeriodSeconds), completes requests whose containers the daemon has
// all given a final state, fails requests that outlive their deadline, lose their
// pod or are never taken by a daemon, and cleans up finished ones (readiness back,
// active label off, deletion after ttlSecondsAfterFinished). It writes only its own
// fields of a request (recreaterequest: writers.go), as merge patches.
package containerrecreaterequest

import (
	"context"
	"fmt"
	"strings"
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
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/reconcile"
	"github.com/kruise-native/kruise-native/pkg/recreaterequest"
)

// ControllerName is the event source and field manager of this controller.
const ControllerName = recreaterequest.ControllerFieldManager

// notReadyUserAgent is how a request appears among the holders of KruisePodReady.
const notReadyUserAgent = "ContainerRecreateRequest"

// byPod indexes requests by "<namespace>/<pod name>", so pod events find their requests.
const byPod = "byPod"

// Controller reconciles ContainerRecreateRequests.
type Controller struct {
	kubeClient   kubernetes.Interface
	kruiseClient kruiseclient.Interface
	recorder     record.EventRecorder
	crrs         kruiselisters.ContainerRecreateRequestLister
	crrIndexer   cache.Indexer
	pods         corelisters.PodLister
	loop         *reconcile.Loop
	now          func() time.Time
}

// New builds the controller on the shared informers.
func New(_ context.Context, cc *manager.ControllerContext) (manager.Controller, error) {
	crrInformer := cc.KruiseInformers.Apps().V1alpha1().ContainerRecreateRequests()
	podInformer := cc.KubeInformers.Core().V1().Pods()
	if err := crrInformer.Informer().AddIndexers(cache.Indexers{byPod: func(obj interface{}) ([]string, error) {
		crr, ok := obj.(*v1alpha1.ContainerRecreateRequest)
		if !ok {
			return nil, nil
		}
		return []string{crr.Namespace + "/" + crr.Spec.PodName}, nil
	}}); err != nil {
		return nil, err
	}
	c := &Controller{
		kubeClient:   cc.KubeClient,
		kruiseClient: cc.KruiseClient,
		recorder:     cc.Recorder(ControllerName),
		crrs:         crrInformer.Lister(),
		crrIndexer:   crrInformer.Informer().GetIndexer(),
		pods:         podInformer.Lister(),
		now:          time.Now,
	}
	c.loop = reconcile.NewLoop("containerrecreaterequest", c.sync, crrInformer.Informer().HasSynced, podInformer.Informer().HasSynced)
	if _, err := crrInformer.Informer().AddEventHandler(c.loop.Handler()); err != nil {
		return nil, err
	}
	// A request deleted before it finished may still hold its pod not ready.
	if _, err := crrInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: func(obj interface{}) {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		if crr, ok := obj.(*v1alpha1.ContainerRecreateRequest); ok {
			c.loop.Add(podKeyPrefix + crr.Namespace + "/" + crr.Spec.PodName)
		}
	}}); err != nil {
		return nil, err
	}
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj interface{}) { c.onPod(obj) },
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

// Run implements manager.Controller.
func (c *Controller) Run(ctx context.Context, workers int) { c.loop.Run(ctx, workers) }

func (c *Controller) onPod(obj interface{}) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	crrs, _ := c.crrIndexer.ByIndex(byPod, pod.Namespace+"/"+pod.Name)
	for _, crr := range crrs {
		c.loop.Enqueue(crr)
	}
}

// podKeyPrefix marks queue keys of pods whose readiness may need giving back.
const podKeyPrefix = "pod:"

func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	if podKey, ok := strings.CutPrefix(key, podKeyPrefix); ok {
		return 0, c.releaseOrphaned(ctx, podKey)
	}
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	crr, err := c.crrs.ContainerRecreateRequests(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if crr.DeletionTimestamp != nil {
		return 0, nil
	}
	pod, err := c.pods.Pods(ns).Get(crr.Spec.PodName)
	if apierrors.IsNotFound(err) {
		pod = nil
	} else if err != nil {
		return 0, err
	}

	now := c.now()
	a := Decide(crr, pod, now)
	logger := klog.FromContext(ctx).WithValues("request", klog.KObj(crr))
	switch {
	case a.Delete:
		logger.V(2).Info("Deleting a finished request past its TTL")
		err := c.kruiseClient.AppsV1alpha1().ContainerRecreateRequests(ns).Delete(ctx, name,
			metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &crr.UID}})
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return 0, nil
		}
		return 0, wrap(err, "deleting")
	case a.Release:
		return a.RequeueAfter, c.release(ctx, crr, pod)
	case a.AcquireUnready:
		return a.RequeueAfter, c.acquireUnready(ctx, crr, pod, now)
	case a.Phase != "":
		if err := c.setPhase(ctx, crr, a, now); err != nil {
			return 0, err
		}
		c.announce(ctx, crr, a)
		return a.RequeueAfter, nil
	}
	return a.RequeueAfter, nil
}

// setPhase writes the phase decided on crr, with its message and completion time, and
// nothing of the node daemon's. The write carries crr's resourceVersion: a decision
// made on a request that has changed since (the daemon took it, or gave its containers
// their last states) is refused, and the queue's retry decides again on the fresh one.
func (c *Controller) setPhase(ctx context.Context, crr *v1alpha1.ContainerRecreateRequest, a Action, now time.Time) error {
	var completion *metav1.Time
	if recreaterequest.Finished(a.Phase) {
		t := metav1.NewTime(now)
		completion = &t
	}
	_, err := c.kruiseClient.AppsV1alpha1().ContainerRecreateRequests(crr.Namespace).Patch(ctx, crr.Name, types.MergePatchType,
		recreaterequest.ControllerStatusPatch(crr, a.Phase, a.Message, completion),
		metav1.PatchOptions{FieldManager: recreaterequest.ControllerFieldManager}, "status")
	if apierrors.IsConflict(err) {
		klog.FromContext(ctx).Info("Phase decision refused: the request changed since it was read; deciding again on the fresh one",
			"request", klog.KObj(crr), "decision", a.Phase, "decidedOn", crr.Status.Phase, "resourceVersion", crr.ResourceVersion)
	}
	return wrap(err, "setting phase %s (decided on phase %q)", a.Phase, crr.Status.Phase)
}

// announce tells in a log line and an event how a request ended, once that is written.
func (c *Controller) announce(ctx context.Context, crr *v1alpha1.ContainerRecreateRequest, a Action) {
	if recreaterequest.Finished(a.Phase) {
		klog.FromContext(ctx).Info("Request finished", "request", klog.KObj(crr), "phase", a.Phase, "message", a.Message)
	}
	switch {
	case a.Phase == v1alpha1.ContainerRecreateRequestFailed:
		c.recorder.Eventf(crr, corev1.EventTypeWarning, "Failed", "%s", a.Message)
	case a.Phase != v1alpha1.ContainerRecreateRequestCompleted:
	case a.Message != "":
		c.recorder.Eventf(crr, corev1.EventTypeWarning, "CompletedWithFailures", "%s", a.Message)
	default:
		var names []string
		for _, st := range crr.Status.ContainerRecreateStates {
			names = append(names, st.Name)
		}
		c.recorder.Eventf(crr, corev1.EventTypeNormal, "Completed", "Recreated containers %s", strings.Join(names, ", "))
	}
}

// acquireUnready makes the pod not ready through its KruisePodReady gate, then records
// the time; the node daemon waits unreadyGracePeriodSeconds from then. A pod without
// the gate cannot be made unready: that is said in an event, and the request goes on.
func (c *Controller) acquireUnready(ctx context.Context, crr *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod, now time.Time) error {
	if podcondition.HasKruisePodReadyGate(pod) {
		updated := pod.DeepCopy()
		if podcondition.EditNotReadyHolders(updated, notReadyUserAgent, crr.Name, nil, metav1.NewTime(now)) {
			if _, err := c.kubeClient.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{FieldManager: ControllerName}); err != nil {
				return wrap(err, "making pod %s not ready", pod.Name)
			}
		}
	} else {
		c.recorder.Eventf(crr, corev1.EventTypeWarning, "PodNotUnready",
			"Pod %s has no %s readiness gate, so it stays ready while its containers are recreated", pod.Name, podcondition.KruisePodReady)
	}
	_, err := c.kruiseClient.AppsV1alpha1().ContainerRecreateRequests(crr.Namespace).Patch(ctx, crr.Name, types.MergePatchType,
		recreaterequest.UnreadyAcquiredPatch(crr, now.UTC().Format(time.RFC3339)),
		metav1.PatchOptions{FieldManager: recreaterequest.ControllerFieldManager})
	return wrap(err, "recording the unready pod")
}

// release gives the pod back the readiness this request took and drops the active
// label, so node daemons stop watching the request.
func (c *Controller) release(ctx context.Context, crr *v1alpha1.ContainerRecreateRequest, pod *corev1.Pod) error {
	if pod != nil && podcondition.HoldsNotReady(pod, notReadyUserAgent, crr.Name) {
		updated := pod.DeepCopy()
		if podcondition.EditNotReadyHolders(updated, notReadyUserAgent, "", []string{crr.Name}, metav1.NewTime(c.now())) {
			if _, err := c.kubeClient.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{FieldManager: ControllerName}); err != nil {
				return wrap(err, "giving pod %s its readiness back", pod.Name)
			}
		}
	}
	_, err := c.kruiseClient.AppsV1alpha1().ContainerRecreateRequests(crr.Namespace).Patch(ctx, crr.Name, types.MergePatchType,
		recreaterequest.ReleasePatch(), metav1.PatchOptions{FieldManager: recreaterequest.ControllerFieldManager})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return wrap(err, "dropping the active label")
}

// releaseOrphaned drops the pod's not-ready holds of requests that are gone or finished.
func (c *Controller) releaseOrphaned(ctx context.Context, podKey string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(podKey)
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
	var stale []string
	for _, h := range podcondition.NotReadyHolders(pod) {
		if h.UserAgent != notReadyUserAgent {
			continue
		}
		crr, err := c.crrs.ContainerRecreateRequests(ns).Get(h.Key)
		if apierrors.IsNotFound(err) || (err == nil && recreaterequest.Finished(crr.Status.Phase)) {
			stale = append(stale, h.Key)
		}
	}
	if len(stale) == 0 {
		return nil
	}
	updated := pod.DeepCopy()
	if !podcondition.EditNotReadyHolders(updated, notReadyUserAgent, "", stale, metav1.NewTime(c.now())) {
		return nil
	}
	_, err = c.kubeClient.CoreV1().Pods(ns).UpdateStatus(ctx, updated, metav1.UpdateOptions{FieldManager: ControllerName})
	return wrap(err, "giving pod %s its readiness back", name)
}

func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
