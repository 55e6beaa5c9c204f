package statefulset

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/specifieddelete"
)

// advanceLifecycles moves pods on from PreparingNormal, Updating and Updated once
// their hooks allow, and takes back a PreparingDelete pod the set wants again
// (scaled up before its hook let go); pods without a lifecycle never need a write.
func (c *Controller) advanceLifecycles(ctx context.Context, st *syncState) error {
	lc := st.set.Spec.Lifecycle
	var todo []*corev1.Pod
	for _, pod := range st.pods {
		if podworkload.HasLifecycleWork(lc, pod) {
			todo = append(todo, pod)
		}
	}
	planned := map[int]bool{}
	for _, d := range st.plan.Delete {
		planned[d.Ordinal] = true
	}
	for _, o := range st.plan.Update {
		planned[o] = true
	}
	now := metav1.NewTime(st.now)
	return batch.ForEach(todo, podworkload.ParallelWrites, func(pod *corev1.Pod) error {
		ord := OrdinalOf(st.set.Name, pod.Name)
		if lifecycle.State(pod) == pub.LifecycleStatePreparingDelete {
			if !st.plan.Desired.Has(ord) || planned[ord] || specifieddelete.Is(pod) {
				return nil // still to go: its hook decides when
			}
			_, err := c.pods.ApplyStep(ctx, st.set, pod, lifecycle.CancelDelete(lc, pod), now)
			return err
		}
		if planned[ord] {
			return nil // this sync already wrote it
		}
		return c.pods.AdvanceLifecycle(ctx, st.set, lc, st.revs, pod, now)
	})
}
