package podworkload

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podindex"
)

// Claim settles which pods the workload controls, as kube's ClaimPods does:
//   - an owned pod that still matches (the selector, and Member) stays;
//   - an owned pod that no longer matches is released (its owner reference removed),
//     unless the workload is being deleted;
//   - an orphan of the namespace that matches, is not being deleted, and whose
//     workload is not being deleted either, is adopted (the workload becomes its
//     controller), after one uncached read has confirmed that the workload still
//     exists under the same UID and is not being deleted: a cached workload may be a
//     deleted one whose name was reused, and adopting for it would hand the pods to the
//     garbage collector.
//
// Pods owned by another controller are never touched. Each write is one patch guarded
// by the pod's UID; the pod as written is remembered, so the next sync waits for the
// cache. It returns the pods the workload controls now; the error joins the failed
// adoptions and releases.
func (c *Control) Claim(ctx context.Context, w Workload, owned []*corev1.Pod) ([]*corev1.Pod, error) {
	selector, err := metav1.LabelSelectorAsSelector(w.Selector)
	if err != nil {
		return nil, fmt.Errorf("selector of %s: %w", key(w.Object), err)
	}
	match := func(pod *corev1.Pod) bool {
		return !selector.Empty() && selector.Matches(labels.Set(pod.Labels)) && (w.Member == nil || w.Member(pod))
	}
	deleting := w.Object.GetDeletionTimestamp() != nil
	var errs []error
	claimed := make([]*corev1.Pod, 0, len(owned))
	for _, pod := range owned {
		if match(pod) {
			claimed = append(claimed, pod)
			continue
		}
		if !deleting {
			errs = append(errs, c.release(ctx, w.Object, pod))
		}
	}
	if deleting {
		return claimed, errors.Join(errs...)
	}
	orphans, err := podindex.Orphans(c.pods, w.Object.GetNamespace())
	if err != nil {
		return nil, err
	}
	canAdopt := sync.OnceValue(func() error { return c.recheck(ctx, w.Object) })
	for _, pod := range orphans {
		if pod.DeletionTimestamp != nil || !match(pod) {
			continue
		}
		if err := canAdopt(); err != nil {
			errs = append(errs, err)
			break
		}
		adopted, err := c.adopt(ctx, w.Object, pod)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if adopted != nil {
			claimed = append(claimed, adopted)
		}
	}
	return claimed, errors.Join(errs...)
}

// recheck confirms with an uncached read that owner may adopt: it exists under the
// same UID and is not being deleted.
func (c *Control) recheck(ctx context.Context, owner Object) error {
	if c.Fresh == nil {
		return fmt.Errorf("cannot adopt pods for %s: no uncached read configured", key(owner))
	}
	fresh, err := c.Fresh(ctx, owner.GetNamespace(), owner.GetName())
	if err != nil {
		return fmt.Errorf("cannot adopt pods for %s: rechecking it: %w", key(owner), err)
	}
	if fresh.GetUID() != owner.GetUID() {
		return fmt.Errorf("cannot adopt pods for %s: it is gone (uid %s now, wanted %s)", key(owner), fresh.GetUID(), owner.GetUID())
	}
	if fresh.GetDeletionTimestamp() != nil {
		return fmt.Errorf("cannot adopt pods for %s: it is being deleted", key(owner))
	}
	return nil
}

// adopt makes owner the pod's controller. A pod gone meanwhile is no error (nil pod).
func (c *Control) adopt(ctx context.Context, owner Object, pod *corev1.Pod) (*corev1.Pod, error) {
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"ownerReferences": []metav1.OwnerReference{c.OwnerRef(owner)},
		"uid":             pod.UID,
	}})
	if err != nil {
		return nil, err
	}
	out, err := c.client.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.StrategicMergePatchType, patch,
		metav1.PatchOptions{FieldManager: c.Name})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("adopting pod %s: %w", pod.Name, err)
	}
	c.Versions.Expect(out)
	klog.FromContext(ctx).V(2).Info("Adopted orphan pod", "pod", klog.KObj(pod))
	return out, nil
}

// release removes owner's reference from the pod. A pod gone meanwhile, or recreated
// under its name (the uid guard fails as invalid), is no error.
func (c *Control) release(ctx context.Context, owner Object, pod *corev1.Pod) error {
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"ownerReferences": []map[string]any{{"$patch": "delete", "uid": owner.GetUID()}},
		"uid":             pod.UID,
	}})
	if err != nil {
		return err
	}
	out, err := c.client.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.StrategicMergePatchType, patch,
		metav1.PatchOptions{FieldManager: c.Name})
	if apierrors.IsNotFound(err) || apierrors.IsInvalid(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("releasing pod %s: %w", pod.Name, err)
	}
	c.Versions.Expect(out)
	klog.FromContext(ctx).V(2).Info("Released pod that no longer matches", "pod", klog.KObj(pod))
	return nil
}
