package podpatch

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// Patcher sends one patch to a pod, or to a subresource of it.
type Patcher interface {
	Patch(ctx context.Context, namespace, name string, pt types.PatchType, data []byte, subresources ...string) (*corev1.Pod, error)
}

// New returns a Patcher on a client-go pods client that sends every patch with
// fieldManager (the controller's name).
func New(pods corev1client.PodsGetter, fieldManager string) Patcher {
	return clientPatcher{pods: pods, fieldManager: fieldManager}
}

type clientPatcher struct {
	pods         corev1client.PodsGetter
	fieldManager string
}

func (c clientPatcher) Patch(ctx context.Context, namespace, name string, pt types.PatchType, data []byte, subresources ...string) (*corev1.Pod, error) {
	return c.pods.Pods(namespace).Patch(ctx, name, pt, data, metav1.PatchOptions{FieldManager: c.fieldManager}, subresources...)
}
