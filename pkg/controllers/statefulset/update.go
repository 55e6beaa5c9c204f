package statefulset

import (
	"context"
	"errors"
	"sync"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// podUpdatePolicy is rollingUpdate.podUpdatePolicy, ReCreate when unset.
func podUpdatePolicy(set *v1beta1.StatefulSet) v1beta1.PodUpdateStrategyType {
	if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.PodUpdatePolicy != "" {
		return ru.PodUpdatePolicy
	}
	return v1beta1.RecreatePodUpdateStrategyType
}

// updatePods brings the planned old pods to the update revision: in place when the
// policy allows and only in-place-able fields changed, otherwise by deleting them
// (the replacement is created at the update revision by a later sync, at the same
// ordinal and with the same claims). Claims behind their templates are resized first
// (claims_resize.go), and the pod waits for them.
func (c *Controller) updatePods(ctx context.Context, st *syncState) error {
	if len(st.plan.Update) == 0 {
		return nil
	}
	policy := podUpdatePolicy(st.set)
	var (
		mu       sync.Mutex
		recreate []*corev1.Pod
	)
	err := batch.ForEach(st.plan.Update, podworkload.ParallelWrites, func(ord int) error {
		pod := st.byOrdinal[ord]
		if cs, ok := st.claimStates[ord]; ok && (cs.stale || cs.resizing) {
			// Claims first: the pod goes on once they have their new size.
			if done, err := c.resizeClaims(ctx, st, pod); err != nil || !done {
				return err
			}
		}
		if st.revs.IsUpdated(pod) {
			return nil // only its claims were behind
		}
		if policy != v1beta1.RecreatePodUpdateStrategyType {
			done, err := c.updateInPlace(ctx, st, pod)
			if err != nil || done {
				return err
			}
			if policy == v1beta1.InPlaceOnlyPodUpdateStrategyType {
				c.recorder.Eventf(st.set, corev1.EventTypeWarning, "FailedUpdatePodInPlace",
					"pod %s cannot be updated in place and the podUpdatePolicy is InPlaceOnly", pod.Name)
				return nil
			}
		}
		mu.Lock()
		recreate = append(recreate, pod)
		mu.Unlock()
		return nil
	})
	return errors.Join(err, c.deleteWithHooks(ctx, st, recreate))
}
