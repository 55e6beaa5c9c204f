package inplaceupdate

import (
	"context"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Initialize gives a newly created pod the Kruise readiness-gate conditions it still
// lacks (InitialConditions) in ONE pods/status patch guarded by the pod's uid, so that
// the pod can become Ready; it writes nothing when none is missing (a gate the pod does
// not carry, or a condition someone already set).
func (e *Executor) Initialize(ctx context.Context, pod *corev1.Pod) (Result, error) {
	conds := InitialConditions(pod, e.now())
	if len(conds) == 0 {
		return Result{}, nil
	}
	data, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"uid": pod.UID},
		"status":   map[string]any{"conditions": conds},
	})
	if err != nil {
		return Result{}, err
	}
	p, err := e.Pods.Patch(ctx, pod.Namespace, pod.Name, types.StrategicMergePatchType, data, "status")
	if err != nil {
		return Result{}, err
	}
	return Result{Pod: p}, nil
}
