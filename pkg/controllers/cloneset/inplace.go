package cloneset

import (
	"context"

	corev1 "k8s.io/api/core/v1"
)

// updateInPlace updates pod in place; false when the change cannot be done in place.
func (c *Controller) updateInPlace(ctx context.Context, st *syncState, pod *corev1.Pod) (bool, error) {
	return false, nil
}

// inPlaceUpdating: the pod is in the middle of an in-place update.
func (c *Controller) inPlaceUpdating(pod *corev1.Pod) bool { return false }
