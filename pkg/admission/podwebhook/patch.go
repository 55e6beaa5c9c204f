package podwebhook

import (
	"encoding/json"
	"fmt"
	"reflect"

	corev1 "k8s.io/api/core/v1"
)

// jsonPatchOp is one RFC 6902 operation.
type jsonPatchOp struct {
	Op    string      `json:"op"`
	Path  string      `json:"path"`
	Value interface{} `json:"value"`
}

// podPatch returns the JSON patch from original to mutated over the fields the webhook
// writes. Each changed field is written whole with "add", which sets a missing member
// and replaces an existing one, so the patch applies whatever the pod held there.
func podPatch(original, mutated *corev1.Pod) ([]byte, error) {
	fields := []struct {
		path     string
		old, new interface{}
		empty    bool
	}{
		{"/metadata/name", original.Name, mutated.Name, mutated.Name == ""},
		{"/metadata/annotations", original.Annotations, mutated.Annotations, len(mutated.Annotations) == 0},
		{"/spec/initContainers", original.Spec.InitContainers, mutated.Spec.InitContainers, len(mutated.Spec.InitContainers) == 0},
		{"/spec/containers", original.Spec.Containers, mutated.Spec.Containers, len(mutated.Spec.Containers) == 0},
		{"/spec/volumes", original.Spec.Volumes, mutated.Spec.Volumes, len(mutated.Spec.Volumes) == 0},
		{"/spec/imagePullSecrets", original.Spec.ImagePullSecrets, mutated.Spec.ImagePullSecrets, len(mutated.Spec.ImagePullSecrets) == 0},
		{"/spec/readinessGates", original.Spec.ReadinessGates, mutated.Spec.ReadinessGates, len(mutated.Spec.ReadinessGates) == 0},
	}
	var ops []jsonPatchOp
	for _, f := range fields {
		// The webhook only ever adds, so a field it changed is never empty afterwards.
		if f.empty || reflect.DeepEqual(f.old, f.new) {
			continue
		}
		ops = append(ops, jsonPatchOp{Op: "add", Path: f.path, Value: f.new})
	}
	if len(ops) == 0 {
		return nil, nil
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return nil, fmt.Errorf("encoding the pod patch: %w", err)
	}
	return data, nil
}
