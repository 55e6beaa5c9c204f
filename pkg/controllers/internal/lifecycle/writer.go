package lifecycle

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
)

// Writer sends the lifecycle steps workloads decide on, one write per step.
type Writer struct {
	// Pods sends the writes (podpatch.New: with the controller as field manager).
	Pods podpatch.Patcher
}

// Write takes step on pod with ONE patch: to pods/status when the KruisePodReady
// condition changes too (that endpoint also takes the labels and annotations), to the
// pod otherwise. It returns the pod as the server answered, or nil when the pod
// already is as the step wants (no write) or step is nil.
func (w Writer) Write(ctx context.Context, pod *corev1.Pod, step *Step, now metav1.Time) (*corev1.Pod, error) {
	if step == nil {
		return nil, nil
	}
	newPod, needsStatus := step.Apply(pod, now)
	if newPod == nil {
		return nil, nil
	}
	data, err := podpatch.Bytes(pod, newPod)
	if err != nil || data == nil {
		return nil, err
	}
	var sub []string
	if needsStatus {
		sub = []string{"status"}
	}
	out, err := w.Pods.Patch(ctx, pod.Namespace, pod.Name, types.StrategicMergePatchType, data, sub...)
	if err != nil {
		return nil, fmt.Errorf("moving pod %s/%s to lifecycle state %s: %w", pod.Namespace, pod.Name, step.To, err)
	}
	return out, nil
}
