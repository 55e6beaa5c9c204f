// Package revisiondata is the format of the pod template a workload's
// ControllerRevision stores: written by the controllers, read back by them for
// rollouts and by kruise-apiserver for the rollback subresource.
package revisiondata

import (
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// Encode returns revision data replacing the template: a strategic merge patch of the
// same shape kube's StatefulSet controller stores.
func Encode(tmpl *corev1.PodTemplateSpec) ([]byte, error) {
	raw, err := json.Marshal(tmpl)
	if err != nil {
		return nil, err
	}
	var t map[string]interface{}
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	t["$patch"] = "replace"
	return json.Marshal(map[string]interface{}{"spec": map[string]interface{}{"template": t}})
}

// Decode returns the pod template a revision stores.
func Decode(rev *appsv1.ControllerRevision) (*corev1.PodTemplateSpec, error) {
	var p struct {
		Spec struct {
			Template corev1.PodTemplateSpec `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(rev.Data.Raw, &p); err != nil {
		return nil, fmt.Errorf("decoding revision %s: %w", rev.Name, err)
	}
	return &p.Spec.Template, nil
}
