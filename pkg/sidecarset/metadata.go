package sidecarset

import (
	"encoding/json"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// PatchPodMetadata writes a SidecarSet's annotations into the pod, at injection and
// at each in-place upgrade of its sidecars (as OpenKruise does): Retain keeps a value
// the pod has (and adds a missing one), Overwrite replaces it, MergePatchJson merges
// the JSON object into the pod's (RFC 7386; a pod value that is not a JSON object is
// kept as it is).
func PatchPodMetadata(pod *corev1.Pod, patches []apps.SidecarSetPatchPodMetadata) {
	for _, p := range patches {
		for k, v := range p.Annotations {
			current, exists := pod.Annotations[k]
			switch {
			case !exists || p.PatchPolicy == apps.SidecarSetOverwritePatchPolicy:
				setAnnotation(pod, k, v)
			case p.PatchPolicy == apps.SidecarSetMergePatchJSONPatchPolicy:
				if merged, ok := mergeJSONObjects(current, v); ok {
					setAnnotation(pod, k, merged)
				}
			}
		}
	}
}

func mergeJSONObjects(target, patch string) (string, bool) {
	var t, p map[string]interface{}
	if json.Unmarshal([]byte(target), &t) != nil || json.Unmarshal([]byte(patch), &p) != nil {
		return "", false
	}
	out, err := json.Marshal(mergePatch(t, p))
	if err != nil {
		return "", false
	}
	return string(out), true
}

// mergePatch applies an RFC 7386 merge patch: null deletes, objects merge, the rest replaces.
func mergePatch(target, patch map[string]interface{}) map[string]interface{} {
	if target == nil {
		target = map[string]interface{}{}
	}
	for k, v := range patch {
		switch pv := v.(type) {
		case nil:
			delete(target, k)
		case map[string]interface{}:
			tv, _ := target[k].(map[string]interface{})
			target[k] = mergePatch(tv, pv)
		default:
			target[k] = v
		}
	}
	return target
}
