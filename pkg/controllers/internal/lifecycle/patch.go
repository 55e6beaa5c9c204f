package lifecycle

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// PatchBytes returns the strategic merge patch taking old to new (a Step.Apply or
// Transition result) for what this package changes: labels, annotations, finalizers
// and status conditions; nil when none differs. Send it to pods/status when Apply
// reported needsStatusWrite, else to the pod. A non-empty patch carries old's uid, so
// it fails instead of landing on a pod recreated under the same name.
func PatchBytes(old, new *corev1.Pod) ([]byte, error) {
	oldJSON, err := json.Marshal(lifecycleFields(old))
	if err != nil {
		return nil, err
	}
	newJSON, err := json.Marshal(lifecycleFields(new))
	if err != nil {
		return nil, err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldJSON, newJSON, &corev1.Pod{})
	if err != nil {
		return nil, fmt.Errorf("pod %s/%s: %w", old.Namespace, old.Name, err)
	}
	if string(patch) == "{}" {
		return nil, nil
	}
	if old.UID == "" {
		return patch, nil
	}
	var m map[string]any
	if err := json.Unmarshal(patch, &m); err != nil {
		return nil, err
	}
	meta, _ := m["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		m["metadata"] = meta
	}
	meta["uid"] = old.UID
	return json.Marshal(m)
}

func lifecycleFields(pod *corev1.Pod) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Labels: pod.Labels, Annotations: pod.Annotations, Finalizers: pod.Finalizers},
		Status:     corev1.PodStatus{Conditions: pod.Status.Conditions},
	}
}
