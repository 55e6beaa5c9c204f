package podworkload

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
)

// BudgetRetryAfter is when a workload tries again an in-place update a
// PodUnavailableBudget refused (429): about when the budget's controller hands the
// slot of the previous update back (pkg/podbudget.Settle).
const BudgetRetryAfter = 5 * time.Second

// UpdateInPlace starts updating pod to the update revision in place. It reports false
// when that cannot be done in place (the caller recreates the pod instead). An
// inPlaceUpdate hook of lc holds the pod in PreparingUpdate until its owner lets go;
// with a lifecycle the pod is marked Updating first (its own write).
func (c *Control) UpdateInPlace(ctx context.Context, owner Object, revs *Revisions, pod *corev1.Pod, lc *pub.Lifecycle,
	strategy *pub.InPlaceUpdateStrategy, now metav1.Time, requeue *Requeue) (bool, error) {
	spec, err := revs.InPlaceSpec(pod)
	if err != nil || spec == nil {
		return false, err
	}
	proceed, step := lifecycle.DecideInPlaceUpdate(lc, pod)
	if pod, err = c.ApplyStep(ctx, owner, pod, step, now); err != nil || !proceed {
		return true, err
	}
	res, err := c.inPlace.Update(ctx, pod, spec, strategy)
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return true, nil // gone or changed meanwhile: the next sync sees it
	}
	if apierrors.IsTooManyRequests(err) {
		// A PodUnavailableBudget has no slot left: not a failure of this sync. Try
		// again after a while (or on the next pod event, when an updated pod is
		// available again) rather than through the queue's error backoff, which
		// would grow with every pod of a long rollout the budget holds back.
		c.event(owner, corev1.EventTypeWarning, ReasonFailedUpdatePodInPlace,
			fmt.Sprintf("in-place update of pod %s waits for its disruption budget: %v", pod.Name, err))
		requeue.After(BudgetRetryAfter)
		return true, nil
	}
	if err != nil {
		c.event(owner, corev1.EventTypeWarning, ReasonFailedUpdatePodInPlace, fmt.Sprintf("failed to update pod %s in-place: %v", pod.Name, err))
		return true, fmt.Errorf("updating pod %s in place: %w", pod.Name, err)
	}
	if res.Pod != nil {
		c.Versions.Expect(res.Pod)
	}
	requeue.After(res.RequeueAfter)
	klog.FromContext(ctx).V(2).Info("Updating pod in place", "pod", klog.KObj(pod), "revision", revs.Update.Name)
	c.event(owner, corev1.EventTypeNormal, ReasonSuccessfulUpdatePodInPlace,
		fmt.Sprintf("successfully update pod %s in-place(revision %s)", pod.Name, revs.Update.Name))
	return true, nil
}

// RefreshInPlace moves every pod with an in-place update in progress on by at most
// one write: after a grace period, to the next container batch, or to finished.
func (c *Control) RefreshInPlace(ctx context.Context, pods []*corev1.Pod, requeue *Requeue) error {
	var inProgress []*corev1.Pod
	for _, pod := range pods {
		if pod.DeletionTimestamp == nil && inplaceupdate.IsInPlaceUpdating(pod) {
			inProgress = append(inProgress, pod)
		}
	}
	return batch.ForEach(inProgress, ParallelWrites, func(pod *corev1.Pod) error {
		res, err := c.inPlace.Refresh(ctx, pod)
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("continuing the in-place update of pod %s: %w", pod.Name, err)
		}
		if res.Pod != nil {
			c.Versions.Expect(res.Pod)
		}
		requeue.After(res.RequeueAfter)
		return nil
	})
}

// InitializePods gives pods that carry Kruise's readiness gates but none of their
// conditions yet (just created) every condition they need, in one status write each
// (inplaceupdate.Executor.Initialize).
func (c *Control) InitializePods(ctx context.Context, pods []*corev1.Pod, now metav1.Time) error {
	var todo []*corev1.Pod
	for _, pod := range pods {
		if pod.DeletionTimestamp == nil && len(inplaceupdate.InitialConditions(pod, now)) > 0 {
			todo = append(todo, pod)
		}
	}
	return batch.ForEach(todo, ParallelWrites, func(pod *corev1.Pod) error {
		res, err := c.inPlace.Initialize(ctx, pod)
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("marking pod %s ready for in-place updates: %w", pod.Name, err)
		}
		if res.Pod != nil {
			c.Versions.Expect(res.Pod)
		}
		return nil
	})
}
