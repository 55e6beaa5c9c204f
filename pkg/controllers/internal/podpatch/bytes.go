package podpatch

import (
	"encoding/json"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

// Bytes returns a strategic merge patch taking old to new for exactly what workload
// controllers change on a pod: labels and annotations (removed keys as null),
// finalizers (added and removed, order kept), container images (containers merged by
// name, only name and image sent) and pod conditions (merged by type, whole condition
// sent). It returns nil when nothing changed, and an error when anything else differs
// in a way it cannot express (containers added, removed or renamed; a condition
// removed). Other spec and status fields are never sent.
//
// A non-empty patch also carries old's metadata.uid: the apiserver refuses to change a
// uid, so the patch fails instead of landing on a pod recreated under the same name.
//
// Send it with types.StrategicMergePatchType to the pod itself when it changes images,
// to the pods/status subresource when it changes conditions (which also accepts the
// metadata changes); never both in one patch.
func Bytes(old, new *corev1.Pod) ([]byte, error) {
	metadata := map[string]any{}
	if d := diffStrings(old.Labels, new.Labels); d != nil {
		metadata["labels"] = d
	}
	if d := diffStrings(old.Annotations, new.Annotations); d != nil {
		metadata["annotations"] = d
	}
	diffFinalizers(old.Finalizers, new.Finalizers, metadata)
	containers, err := DiffImages(old.Spec.Containers, new.Spec.Containers)
	if err != nil {
		return nil, fmt.Errorf("pod %s/%s: %w", old.Namespace, old.Name, err)
	}
	conditions, err := DiffConditions(old.Status.Conditions, new.Status.Conditions)
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
		entries, err := conditionEntries(old.Status.Conditions, conditions)
		if err != nil {
			return nil, fmt.Errorf("pod %s/%s: %w", old.Namespace, old.Name, err)
		}
		patch["status"] = map[string]any{"conditions": entries}
	}
	return json.Marshal(patch)
}

// conditionEntries turns changed conditions into patch entries. A strategic merge
// merges an entry into the condition of its type field by field, so a field the new
// condition no longer has (a message cleared) is sent as null, or the old value stays.
func conditionEntries(old, changed []corev1.PodCondition) ([]map[string]any, error) {
	out := make([]map[string]any, 0, len(changed))
	for i := range changed {
		entry, err := toMap(changed[i])
		if err != nil {
			return nil, err
		}
		if o := podcondition.Find(old, changed[i].Type); o != nil {
			before, err := toMap(*o)
			if err != nil {
				return nil, err
			}
			for k := range before {
				if _, ok := entry[k]; !ok {
					entry[k] = nil
				}
			}
		}
		out = append(out, entry)
	}
	return out, nil
}

func toMap(c corev1.PodCondition) (map[string]any, error) {
	data, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(data, &m)
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

// diffFinalizers writes the strategic merge directives for finalizers (a merged list of
// strings) into metadata: the added ones, the removed ones, and the order of the whole
// list, as kube's own two-way merge would.
func diffFinalizers(old, cur []string, metadata map[string]any) {
	if slices.Equal(old, cur) {
		return
	}
	var added, removed []string
	for _, f := range cur {
		if !slices.Contains(old, f) {
			added = append(added, f)
		}
	}
	for _, f := range old {
		if !slices.Contains(cur, f) {
			removed = append(removed, f)
		}
	}
	if added != nil {
		metadata["finalizers"] = added
	}
	if removed != nil {
		metadata["$deleteFromPrimitiveList/finalizers"] = removed
	}
	order := cur
	if order == nil {
		order = []string{}
	}
	metadata["$setElementOrder/finalizers"] = order
}

// ContainerImage is one container's entry in a patch: its name (the merge key) and image.
type ContainerImage struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

// DiffImages returns the image changes from old to cur, or an error when the
// containers themselves differ (an in-place update changes images only).
func DiffImages(old, cur []corev1.Container) ([]ContainerImage, error) {
	if len(old) != len(cur) {
		return nil, fmt.Errorf("containers changed from %d to %d: not an in-place update", len(old), len(cur))
	}
	var out []ContainerImage
	for i := range cur {
		o := findContainer(old, cur[i].Name)
		if o == nil {
			return nil, fmt.Errorf("container %q is new: not an in-place update", cur[i].Name)
		}
		if o.Image != cur[i].Image {
			out = append(out, ContainerImage{Name: cur[i].Name, Image: cur[i].Image})
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

// DiffConditions returns the conditions cur adds or changes, or an error when one of
// old's is gone (controllers set conditions, they never remove one).
func DiffConditions(old, cur []corev1.PodCondition) ([]corev1.PodCondition, error) {
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
