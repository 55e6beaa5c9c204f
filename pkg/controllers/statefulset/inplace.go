package statefulset

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
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
	return c.pods.UpdateInPlace(ctx, st.set, st.revs, pod, st.set.Spec.Lifecycle, inPlaceStrategy(st), metav1.NewTime(st.now), &st.requeue)
}
