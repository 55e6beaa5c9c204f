package cloneset

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// updatePod brings one old pod to the update revision: in place when the policy
// allows and only in-place-able fields changed, otherwise by deleting it (the
// replacement is created at the update revision by a later sync).
func (c *Controller) updatePod(ctx context.Context, st *syncState, pod *corev1.Pod) error {
	return c.movePod(ctx, st, st.revs, pod, inPlace(st.cs))
}

// rollbackPod brings one updated pod back to the current revision (feature gate
// CloneSetPartitionRollback), the same way: in place when possible, otherwise by
// deleting it (no more pods may be updated, so its replacement is created at the
// current revision).
//
// Not in place under an inPlaceUpdate lifecycle hook: the hook's states end when a pod
// reaches the update revision, which a pod rolled back never does, so such a pod is
// recreated (and an InPlaceOnly CloneSet's waits, with an event).
func (c *Controller) rollbackPod(ctx context.Context, st *syncState, pod *corev1.Pod) error {
	hooked := st.cs.Spec.Lifecycle != nil && st.cs.Spec.Lifecycle.InPlaceUpdate != nil
	return c.movePod(ctx, st, st.revs.Toward(st.revs.Current), pod, inPlace(st.cs) && !hooked)
}

// movePod brings pod to revs.Update, in place when inPlaceOK and the change allows.
func (c *Controller) movePod(ctx context.Context, st *syncState, revs *podworkload.Revisions, pod *corev1.Pod, inPlaceOK bool) error {
	if inPlaceOK {
		done, err := c.pods.UpdateInPlace(ctx, st.cs, revs, pod, st.cs.Spec.Lifecycle, inPlaceStrategy(st.cs),
			metav1.NewTime(st.now), &st.requeue)
		if err != nil || done {
			return err
		}
	}
	if podUpdatePolicy(st.cs) == v1beta1.InPlaceOnlyCloneSetPodUpdateStrategyType {
		c.recorder.Eventf(st.cs, corev1.EventTypeWarning, "FailedUpdatePodInPlace",
			"pod %s cannot be updated in place and the strategy is InPlaceOnly", pod.Name)
		return nil
	}
	return c.deletePods(ctx, st, []string{pod.Name})
}
