package sidecarset

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// ReasonRolloutBlocked is the event reason saying why pods wait for new sidecars.
const ReasonRolloutBlocked = "RolloutBlocked"

func (c *Controller) sync(ctx context.Context, name string) (time.Duration, error) {
	v, err := c.sidecarSets.Get(name)
	if apierrors.IsNotFound(err) {
		c.setBlocked(name, "")
		return 0, nil // the garbage collector removes its revisions
	}
	if err != nil || v.DeletionTimestamp != nil {
		return 0, err
	}
	if !c.status.Current(ctx, v) {
		return 0, nil // our last status write is not in the cache yet; its event syncs again
	}
	ss := &apps.SidecarSet{}
	if err := c.scheme.Convert(v, ss, nil); err != nil {
		return 0, fmt.Errorf("converting SidecarSet %s: %w", name, err)
	}
	pods, err := c.selectedPods(ss)
	if err != nil {
		return 0, err
	}
	inUse := sets.New[string]()
	for _, pod := range pods {
		if !c.podVersions.Observe(pod) {
			return 0, nil // a pod we patched is not in the cache yet; its event syncs again
		}
		inUse.Insert(sidecarset.UpgradeSpecs(pod, pub.SidecarSetHashAnnotation)[ss.Name].ControllerRevision)
	}
	revision, collisionCount, err := c.syncRevision(ctx, v, ss, inUse)
	if err != nil {
		return 0, fmt.Errorf("revisions of SidecarSet %s: %w", name, err)
	}
	t, err := newTarget(ss, revision)
	if err != nil {
		return 0, err
	}
	var canary labels.Selector
	if sel := ss.Spec.UpdateStrategy.Selector; sel != nil {
		if canary, err = metav1.LabelSelectorAsSelector(sel); err != nil {
			return 0, fmt.Errorf("updateStrategy.selector of SidecarSet %s: %w", name, err)
		}
	}
	states := make([]podStatus, len(pods))
	for i, pod := range pods {
		states[i] = classify(pod, t, canary)
	}

	now := metav1.NewTime(c.now())
	// Hot upgrades under way hand over first: they finish what earlier syncs started.
	for i := range states {
		ps := &states[i]
		if !ps.updated || ps.consistent {
			continue
		}
		next, err := switchOver(ps.pod, t, ps.sidecars, now)
		if err != nil || next == nil {
			continue
		}
		if ps.pod, err = c.patchPod(ctx, ps.pod, next); err != nil {
			return 0, err
		}
		*ps = classify(ps.pod, t, canary)
	}
	p := planRollout(ss, states)
	byUID := map[types.UID]int{}
	for i := range states {
		byUID[states[i].pod.UID] = i
	}
	for _, ps := range p.upgrade {
		next, err := upgrade(ps.pod, t, ps.sidecars, now)
		if err != nil {
			return 0, err
		}
		updated, err := c.patchPod(ctx, ps.pod, next)
		if err != nil {
			return 0, err
		}
		states[byUID[ps.pod.UID]] = classify(updated, t, canary)
	}
	if err := c.writeStatus(ctx, v, computeStatus(v.Generation, states, revision, collisionCount)); err != nil {
		return 0, err
	}
	c.reportBlocked(v, p.blocked)
	return 0, nil
}

func newTarget(ss *apps.SidecarSet, revision string) (*target, error) {
	hash, err := sidecarset.Hash(ss)
	if err != nil {
		return nil, err
	}
	withoutImage, err := sidecarset.HashWithoutImage(ss)
	if err != nil {
		return nil, err
	}
	return &target{ss: ss, hash: hash, hashWithoutImage: withoutImage, revision: revision}, nil
}

// selectedPods are the live pods the SidecarSet was injected into and still selects.
func (c *Controller) selectedPods(ss *apps.SidecarSet) ([]*corev1.Pod, error) {
	objs, err := c.podIndexer.ByIndex(injectedIndex, ss.Name)
	if err != nil {
		return nil, err
	}
	nsLabels := func(name string) (labels.Set, error) {
		ns, err := c.namespaces.Get(name)
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return ns.Labels, nil
	}
	var out []*corev1.Pod
	for _, obj := range objs {
		pod, ok := obj.(*corev1.Pod)
		if !ok || pod.DeletionTimestamp != nil || pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
			continue
		}
		match, err := sidecarset.Matches(ss, pod, nsLabels)
		if err != nil {
			return nil, err
		}
		if match {
			out = append(out, pod)
		}
	}
	return out, nil
}

// patchPod sends the one patch taking pod to next (images and annotations), guarded by
// the pod's uid. A pod gone meanwhile is no error.
func (c *Controller) patchPod(ctx context.Context, pod, next *corev1.Pod) (*corev1.Pod, error) {
	data, err := podpatch.Bytes(pod, next)
	if err != nil || data == nil {
		return pod, err
	}
	out, err := c.kubeClient.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.StrategicMergePatchType, data,
		metav1.PatchOptions{FieldManager: ControllerName})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return pod, nil
	}
	if err != nil {
		return nil, fmt.Errorf("upgrading the sidecars of pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	c.podVersions.Expect(out)
	klog.FromContext(ctx).V(2).Info("Upgraded sidecars", "pod", klog.KObj(out))
	return out, nil
}

func computeStatus(generation int64, states []podStatus, revision string, collisionCount int32) v1beta1.SidecarSetStatus {
	st := v1beta1.SidecarSetStatus{
		ObservedGeneration: generation,
		MatchedPods:        int32(len(states)),
		LatestRevision:     revision,
		CollisionCount:     &collisionCount,
	}
	for _, ps := range states {
		if ps.updated {
			st.UpdatedPods++
		}
		if ps.ready {
			st.ReadyPods++
		}
		if ps.updated && ps.consistent && ps.ready {
			st.UpdatedReadyPods++
		}
	}
	return st
}

// writeStatus writes the status once, and only when it changed.
func (c *Controller) writeStatus(ctx context.Context, v *v1beta1.SidecarSet, st v1beta1.SidecarSetStatus) error {
	if _, err := c.status.Write(ctx, v, st, podworkload.Outcome{}); err != nil {
		return fmt.Errorf("SidecarSet %s: %w", v.Name, err)
	}
	return nil
}

// statusAPI is the SidecarSet's side of podworkload.StatusAPI.
type statusAPI struct{ client kruiseclient.Interface }

func (statusAPI) Status(v *v1beta1.SidecarSet) v1beta1.SidecarSetStatus { return v.Status }

func (a statusAPI) UpdateStatus(ctx context.Context, v *v1beta1.SidecarSet, st v1beta1.SidecarSetStatus) (*v1beta1.SidecarSet, error) {
	updated := v.DeepCopy()
	updated.Status = st
	return a.client.AppsV1beta1().SidecarSets().UpdateStatus(ctx, updated, metav1.UpdateOptions{FieldManager: ControllerName})
}

// reportBlocked records why pods wait for new sidecars, once per new reason.
func (c *Controller) reportBlocked(v *v1beta1.SidecarSet, reasons []string) {
	msg := strings.Join(reasons, "; ")
	if !c.setBlocked(v.Name, msg) || msg == "" {
		return
	}
	c.recorder.Event(v, corev1.EventTypeWarning, ReasonRolloutBlocked, msg)
}

// setBlocked remembers the message and reports whether it changed.
func (c *Controller) setBlocked(name, msg string) bool {
	c.blockedMu.Lock()
	defer c.blockedMu.Unlock()
	if c.blocked[name] == msg {
		return false
	}
	if msg == "" {
		delete(c.blocked, name)
	} else {
		c.blocked[name] = msg
	}
	return true
}
