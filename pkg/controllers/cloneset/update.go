package cloneset

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// updatePod brings one old pod to the update revision: in place when the strategy
// allows and only in-place-able fields changed, otherwise by deleting it (the
// replacement is created at the update revision by a later sync).
func (c *Controller) updatePod(ctx context.Context, st *syncState, pod *corev1.Pod) error {
	switch st.cs.Spec.UpdateStrategy.Type {
	case apps.InPlaceIfPossibleCloneSetUpdateStrategyType, apps.InPlaceOnlyCloneSetUpdateStrategyType:
		done, err := c.updateInPlace(ctx, st, pod)
		if err != nil || done {
			return err
		}
		if st.cs.Spec.UpdateStrategy.Type == apps.InPlaceOnlyCloneSetUpdateStrategyType {
			c.recorder.Eventf(st.owner, corev1.EventTypeWarning, "FailedUpdatePodInPlace",
				"pod %s cannot be updated in place and the strategy is InPlaceOnly", pod.Name)
			return nil
		}
	}
	return c.deletePods(ctx, st, []string{pod.Name})
}
