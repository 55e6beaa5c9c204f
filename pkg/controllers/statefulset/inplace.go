package statefulset

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
)

// inPlaceStrategy is rollingUpdate.inPlaceUpdateStrategy (grace period), if any.
func inPlaceStrategy(st *syncState) *pub.InPlaceUpdateStrategy {
	if ru := st.set.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		return ru.InPlaceUpdateStrategy
	}
	return nil
}

// updateInPlace starts updating pod to the update revision in place; false when the
// change between the pod's revision and the update revision cannot be done in place.
func (c *Controller) updateInPlace(ctx context.Context, st *syncState, pod *corev1.Pod) (bool, error) {
	oldRev := st.revisionByName(pod.Labels[pub.ControllerRevisionHashLabelKey])
	if oldRev == nil {
		return false, nil // its revision is gone from history: recreate
	}
	spec, err := st.inPlaceSpec(oldRev)
	if err != nil || spec == nil {
		return false, err
	}
	// An inPlaceUpdate hook holds the pod in PreparingUpdate until its owner lets go.
	proceed, step := lifecycle.DecideInPlaceUpdate(st.set.Spec.Lifecycle, pod)
	if pod, err = c.applyStep(ctx, st, pod, step); err != nil || !proceed {
		return true, err
	}
	res, err := c.inPlace.Update(ctx, pod, spec, inPlaceStrategy(st))
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return true, nil // gone or changed meanwhile: the next sync sees it
	}
	if err != nil {
		c.recorder.Eventf(st.owner, corev1.EventTypeWarning, "FailedUpdatePodInPlace",
			"failed to update pod %s in-place: %v", pod.Name, err)
		return true, wrap(err, "updating pod %s in place", pod.Name)
	}
	if res.Pod != nil {
		c.podVersions.Expect(res.Pod)
	}
	st.requeueAt(res.RequeueAfter)
	klog.FromContext(ctx).V(2).Info("Updating pod in place", "pod", klog.KObj(pod), "revision", st.updateRev.Name)
	c.recorder.Eventf(st.owner, corev1.EventTypeNormal, "SuccessfulUpdatePodInPlace",
		"successfully update pod %s in-place(revision %s)", pod.Name, st.updateRev.Name)
	return true, nil
}

// refreshInPlace moves every pod with an in-place update in progress on by at most
// one write: after a grace period, to the next container batch, or to finished.
func (c *Controller) refreshInPlace(ctx context.Context, st *syncState) error {
	var inProgress []*corev1.Pod
	for _, pod := range st.pods {
		if pod.DeletionTimestamp == nil && inplaceupdate.IsInPlaceUpdating(pod) {
			inProgress = append(inProgress, pod)
		}
	}
	return batch.ForEach(inProgress, parallelWrites, func(pod *corev1.Pod) error {
		res, err := c.inPlace.Refresh(ctx, pod)
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return nil
		}
		if err != nil {
			return wrap(err, "continuing the in-place update of pod %s", pod.Name)
		}
		if res.Pod != nil {
			c.podVersions.Expect(res.Pod)
		}
		st.requeueAt(res.RequeueAfter)
		return nil
	})
}

// markNewPodsReady gives pods that carry Kruise's readiness gates but none of their
// conditions yet (just created) every condition they need, in one status write each.
func (c *Controller) markNewPodsReady(ctx context.Context, st *syncState) error {
	var todo []*corev1.Pod
	for _, pod := range st.pods {
		if pod.DeletionTimestamp == nil && len(inplaceupdate.InitialConditions(pod, metav1.NewTime(st.now))) > 0 {
			todo = append(todo, pod)
		}
	}
	return batch.ForEach(todo, parallelWrites, func(pod *corev1.Pod) error {
		res, err := c.inPlace.Initialize(ctx, pod)
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return nil
		}
		if err != nil {
			return wrap(err, "marking pod %s ready for in-place updates", pod.Name)
		}
		if res.Pod != nil {
			c.podVersions.Expect(res.Pod)
		}
		return nil
	})
}
