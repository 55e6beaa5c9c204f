package cloneset

import (
	"context"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
)

// markNewPodsReady gives pods that carry Kruise's readiness gates but none of their
// conditions yet (just created) every condition they need in one status patch.
func (c *Controller) markNewPodsReady(ctx context.Context, st *syncState) error {
	now := metav1.NewTime(c.now())
	type pending struct {
		pod        *corev1.Pod
		conditions []corev1.PodCondition
	}
	var todo []pending
	for _, pod := range st.pods {
		if conds := inplaceupdate.InitialConditions(pod, now); len(conds) > 0 {
			todo = append(todo, pending{pod, conds})
		}
	}
	return forEach(todo, func(p pending) error {
		pod := p.pod
		patch, err := json.Marshal(map[string]any{
			"metadata": map[string]any{"uid": pod.UID},
			"status":   map[string]any{"conditions": p.conditions},
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
