package cloneset

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
)

// updateInPlace starts updating pod to the update revision in place; false when the
// change between the pod's revision and the update revision cannot be done in place.
func (c *Controller) updateInPlace(ctx context.Context, st *syncState, pod *corev1.Pod) (bool, error) {
	oldRev := st.revisionByName(pod.Labels[pub.ControllerRevisionHashLabelKey])
	if oldRev == nil {
		return false, nil // its revision is gone from history: recreate
	}
	spec, err := st.inPlaceSpec(oldRev)
	if err != nil {
		return false, err
	}
	if spec == nil {
		return false, nil
	}
	// An inPlaceUpdate hook holds the pod in PreparingUpdate until its owner lets go;
	// with a lifecycle configured the pod is then marked Updating (its own write).
	proceed, step := lifecycle.DecideInPlaceUpdate(st.cs.Spec.Lifecycle, pod)
	if pod, err = c.applyStep(ctx, st, pod, step); err != nil || !proceed {
		return true, err
	}
	res, err := c.inPlace.Update(ctx, pod, spec, st.cs.Spec.UpdateStrategy.InPlaceUpdateStrategy)
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return true, nil // gone or changed meanwhile: the next sync sees it
	}
	if err != nil {
		c.recorder.Eventf(st.owner, corev1.EventTypeWarning, "FailedUpdatePodInPlace", "failed to update pod %s in-place: %v", pod.Name, err)
		return true, wrap(err, "updating pod %s in place", pod.Name)
	}
	if res.Pod != nil {
		c.podVersions.Expect(res.Pod)
	}
	st.requeueAt(res.RequeueAfter)
	c.recorder.Eventf(st.owner, corev1.EventTypeNormal, "SuccessfulUpdatePodInPlace", "successfully update pod %s in-place(revision %s)", pod.Name, st.updateRev.Name)
	return true, nil
}

// refreshInPlace moves every pod with an in-place update in progress on by at most one
// write: after a grace period, to the next container batch, or to finished.
func (c *Controller) refreshInPlace(ctx context.Context, st *syncState) error {
	var inProgress []*corev1.Pod
	for _, pod := range st.pods {
		if c.inPlaceUpdating(pod) {
			inProgress = append(inProgress, pod)
		}
	}
	return forEach(inProgress, func(pod *corev1.Pod) error {
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

// inPlaceUpdating: the pod is in the middle of an in-place update (not available).
func (c *Controller) inPlaceUpdating(pod *corev1.Pod) bool {
	return inplaceupdate.IsInPlaceUpdating(pod)
}

// requeueAt asks for another sync after d (the shortest request wins).
func (st *syncState) requeueAt(d time.Duration) {
	if d > 0 && (st.requeue == 0 || d < st.requeue) {
		st.requeue = d
	}
}
