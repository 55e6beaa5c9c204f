package cloneset

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
)

// markNewPodsReady gives pods that carry Kruise's readiness gates but none of their
// conditions yet (just created) every condition they need, in one status write each.
func (c *Controller) markNewPodsReady(ctx context.Context, st *syncState) error {
	var todo []*corev1.Pod
	for _, pod := range st.pods {
		if len(inplaceupdate.InitialConditions(pod, metav1.NewTime(c.now()))) > 0 {
			todo = append(todo, pod)
		}
	}
	return forEach(todo, func(pod *corev1.Pod) error {
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
