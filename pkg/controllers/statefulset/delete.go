package statefulset

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// deletePods deletes the planned pods: condemned ones after their claims got the
// owners the retention policy wants (so the garbage collector deletes exactly the
// claims it should), failed ones to be recreated.
func (c *Controller) deletePods(ctx context.Context, st *syncState) error {
	var errs []error
	var pods []*corev1.Pod
	for _, d := range st.plan.Delete {
		pod := st.byOrdinal[d.Ordinal]
		if d.Reason == DeleteCondemned {
			if err := c.setClaimRefs(ctx, st, pod, d.Ordinal, true); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		if d.Reason == DeleteFailed {
			c.recorder.Eventf(st.set, corev1.EventTypeWarning, "RecreatingFailedPod",
				"StatefulSet %s/%s is recreating failed Pod %s", st.set.Namespace, st.set.Name, pod.Name)
		}
		pods = append(pods, pod)
	}
	return errors.Join(append(errs, c.deleteWithHooks(ctx, st, pods))...)
}

// deleteWithHooks deletes pods, except those a preDelete hook holds: those move to
// PreparingDelete and wait for the hook's owner. Claims stay: the retention policy
// (their owner references) decides what the garbage collector deletes.
func (c *Controller) deleteWithHooks(ctx context.Context, st *syncState, pods []*corev1.Pod) error {
	return c.pods.DeletePods(ctx, st.set, st.set.Spec.Lifecycle, pods, nil, metav1.NewTime(st.now))
}
