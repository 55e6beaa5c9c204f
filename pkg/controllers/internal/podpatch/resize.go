package podpatch

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
)

// ResizeSubresource is the pod subresource that changes container resources (kube
// v1.33+; the pod itself refuses resource changes).
const ResizeSubresource = "resize"

// ContainerResources is one container's entry in a resize patch: its name (the merge
// key) and its whole resource requirements.
type ContainerResources struct {
	Name      string                      `json:"name"`
	Resources corev1.ResourceRequirements `json:"resources"`
}

// ResizeBytes returns the strategic merge patch for the pods/resize subresource that
// takes old's container resources to new's, or nil when none differs. Only containers
// whose resources change are sent, each with its whole requests and limits (the
// resize subresource may not remove a request or limit, so merging them is the
// replacement). Like Bytes, it carries old's uid, so it fails on a pod recreated
// under the same name. Containers added, removed or renamed are an error.
func ResizeBytes(old, new *corev1.Pod) ([]byte, error) {
	if len(old.Spec.Containers) != len(new.Spec.Containers) {
		return nil, fmt.Errorf("pod %s/%s: containers changed from %d to %d: not a resize", old.Namespace, old.Name,
			len(old.Spec.Containers), len(new.Spec.Containers))
	}
	var containers []ContainerResources
	for i := range new.Spec.Containers {
		c := &new.Spec.Containers[i]
		o := findContainer(old.Spec.Containers, c.Name)
		if o == nil {
			return nil, fmt.Errorf("pod %s/%s: container %q is new: not a resize", old.Namespace, old.Name, c.Name)
		}
		if !apiequality.Semantic.DeepEqual(o.Resources, c.Resources) {
			containers = append(containers, ContainerResources{Name: c.Name, Resources: c.Resources})
		}
	}
	if containers == nil {
		return nil, nil
	}
	patch := map[string]any{"spec": map[string]any{"containers": containers}}
	if old.UID != "" {
		patch["metadata"] = map[string]any{"uid": old.UID}
	}
	return json.Marshal(patch)
}
