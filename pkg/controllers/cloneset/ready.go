package cloneset

import (
	"context"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// markNewPodsReady sets InPlaceUpdateReady=True on pods that carry the gate but not
// yet the condition (just created) or whose in-place update finished: one status
// patch per pod, with every condition it needs.
func (c *Controller) markNewPodsReady(ctx context.Context, st *syncState) error {
	var todo []*corev1.Pod
	for _, pod := range st.pods {
		if !hasReadinessGate(pod, pub.InPlaceUpdateReady) || c.inPlaceUpdating(pod) {
			continue
		}
		if cond := podCondition(pod, pub.InPlaceUpdateReady); cond == nil || cond.Status != corev1.ConditionTrue {
			todo = append(todo, pod)
		}
	}
	now := metav1.NewTime(c.now())
	return forEach(todo, func(pod *corev1.Pod) error {
		patch, err := json.Marshal(map[string]any{
			"status": map[string]any{
				"conditions": []corev1.PodCondition{{
					Type: pub.InPlaceUpdateReady, Status: corev1.ConditionTrue, LastTransitionTime: now,
				}},
			},
		})
		if err != nil {
			return err
		}
		updated, err := c.kubeClient.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.StrategicMergePatchType,
			patch, metav1.PatchOptions{FieldManager: ControllerName}, "status")
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return wrap(err, "marking pod %s ready for in-place updates", pod.Name)
		}
		c.podVersions.Expect(updated)
		return nil
	})
}
