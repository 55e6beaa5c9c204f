package inplaceupdate

import (
	"encoding/json"
	"fmt"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
)

// PatchBytes returns a strategic merge patch taking old to new for exactly what this
// package changes: labels and annotations (removed keys as null), container images
// (containers merged by name, only name and image sent) and pod conditions (merged by
// type, whole condition sent). It returns nil when nothing changed, and an error when
// anything else differs in a way it cannot express (containers added, removed or
// renamed; a condition removed).
//
// A non-empty patch also carries old's metadata.uid: the apiserver refuses to change a
// uid, so the patch fails instead of landing on a pod recreated under the same name.
//
// Send it with types.StrategicMergePatchType to the pod itself when it changes images,
// to the pods/status subresource when it changes conditions (which also accepts the
// label and annotation changes); never both in one patch, see Executor.
func PatchBytes(old, new *corev1.Pod) ([]byte, error) {
	metadata := map[string]any{}
	if d := diffStrings(old.Labels, new.Labels); d != nil {
		metadata["labels"] = d
	}
	if d := diffStrings(old.Annotations, new.Annotations); d != nil {
		metadata["annotations"] = d
	}
	containers, err := diffImages(old.Spec.Containers, new.Spec.Containers)
	if err != nil {
		return nil, fmt.Errorf("pod %s/%s: %w", old.Namespace, old.Name, err)
	}
	conditions, err := diffConditions(old.Status.Conditions, new.Status.Conditions)
	if err != nil {
		return nil, fmt.Errorf("pod %s/%s: %w", old.Namespace, old.Name, err)
	}
	if len(metadata) == 0 && containers == nil && conditions == nil {
		return nil, nil
	}
	if old.UID != "" {
		metadata["uid"] = old.UID
	}
	patch := map[string]any{"metadata": metadata}
	if containers != nil {
		patch["spec"] = map[string]any{"containers": containers}
	}
	if conditions != nil {
		patch["status"] = map[string]any{"conditions": conditions}
	}
	return json.Marshal(patch)
}

// diffStrings returns the merge patch from old to cur (nil values remove keys), or nil.
func diffStrings(old, cur map[string]string) map[string]any {
	d := map[string]any{}
	for k, v := range cur {
		if ov, ok := old[k]; !ok || ov != v {
			d[k] = v
		}
	}
	for k := range old {
		if _, ok := cur[k]; !ok {
			d[k] = nil
		}
	}
	if len(d) == 0 {
		return nil
	}
	return d
}

type containerImagePatch struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

func diffImages(old, cur []corev1.Container) ([]containerImagePatch, error) {
	if len(old) != len(cur) {
		return nil, fmt.Errorf("containers changed from %d to %d: not an in-place update", len(old), len(cur))
	}
	var out []containerImagePatch
	for i := range cur {
		o := findContainer(old, cur[i].Name)
		if o == nil {
			return nil, fmt.Errorf("container %q is new: not an in-place update", cur[i].Name)
		}
		if o.Image != cur[i].Image {
			out = append(out, containerImagePatch{Name: cur[i].Name, Image: cur[i].Image})
		}
	}
	return out, nil
}

func findContainer(cs []corev1.Container, name string) *corev1.Container {
	for i := range cs {
		if cs[i].Name == name {
			return &cs[i]
		}
	}
	return nil
}

func diffConditions(old, cur []corev1.PodCondition) ([]corev1.PodCondition, error) {
	var out []corev1.PodCondition
	for i := range cur {
		o := podcondition.Find(old, cur[i].Type)
		if o == nil || !apiequality.Semantic.DeepEqual(*o, cur[i]) {
			out = append(out, cur[i])
		}
	}
	for i := range old {
		if podcondition.Find(cur, old[i].Type) == nil {
			return nil, fmt.Errorf("condition %s removed: cannot be patched", old[i].Type)
		}
	}
	return out, nil
}
