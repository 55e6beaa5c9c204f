package sidecarset

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// UpgradeSpec is what a pod records about one SidecarSet's sidecars in the hash
// annotations (one JSON object per annotation, keyed by SidecarSet name).
type UpgradeSpec struct {
	UpdateTimestamp metav1.Time `json:"updateTimestamp"`
	Hash            string      `json:"hash"`
	SidecarSetName  string      `json:"sidecarSetName"`
	// SidecarList names the SidecarSet's sidecars in the pod: its native sidecars and
	// containers, sorted (see SidecarList); a name the pod had before injection is left
	// out, so an upgrade never touches a container the SidecarSet did not inject.
	SidecarList []string `json:"sidecarList"`
	// ControllerRevision is the revision the sidecars came from, when known.
	ControllerRevision string `json:"controllerRevision,omitempty"`
}

// UpgradeSpecs reads one of the hash annotations of a pod. A missing or unreadable
// annotation reads as no SidecarSet at all.
func UpgradeSpecs(pod *corev1.Pod, annotation string) map[string]UpgradeSpec {
	out := map[string]UpgradeSpec{}
	v, ok := pod.Annotations[annotation]
	if !ok {
		return out
	}
	if err := json.Unmarshal([]byte(v), &out); err == nil {
		return out
	}
	// OpenKruise before v0.9 wrote bare hashes by name; it still reads them.
	older := map[string]string{}
	if err := json.Unmarshal([]byte(v), &older); err != nil {
		return map[string]UpgradeSpec{}
	}
	out = map[string]UpgradeSpec{}
	for name, hash := range older {
		out[name] = UpgradeSpec{Hash: hash, SidecarSetName: name}
	}
	return out
}

// SetUpgradeSpec records spec for its SidecarSet in one of the hash annotations.
func SetUpgradeSpec(pod *corev1.Pod, annotation string, spec UpgradeSpec) error {
	specs := UpgradeSpecs(pod, annotation)
	specs[spec.SidecarSetName] = spec
	data, err := json.Marshal(specs)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", annotation, err)
	}
	setAnnotation(pod, annotation, string(data))
	return nil
}

// AddToInjectedList adds a SidecarSet to the pod's list of injected SidecarSets.
func AddToInjectedList(pod *corev1.Pod, name string) {
	names := InjectedList(pod)
	for _, n := range names {
		if n == name {
			return
		}
	}
	names = append(names, name)
	sort.Strings(names)
	setAnnotation(pod, pub.SidecarSetListAnnotation, strings.Join(names, ","))
}

// InjectedList returns the SidecarSets injected into the pod.
func InjectedList(pod *corev1.Pod) []string {
	v := pod.Annotations[pub.SidecarSetListAnnotation]
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

// WorkingHotUpgradeContainers maps each HotUpgrade sidecar of the pod to the container
// of its pair that works now.
func WorkingHotUpgradeContainers(pod *corev1.Pod) map[string]string {
	out := map[string]string{}
	if v, ok := pod.Annotations[pub.SidecarSetWorkingHotUpgradeContainer]; ok {
		if err := json.Unmarshal([]byte(v), &out); err != nil {
			return map[string]string{}
		}
	}
	return out
}

// SetWorkingHotUpgradeContainers records which container of each pair works.
func SetWorkingHotUpgradeContainers(pod *corev1.Pod, working map[string]string) error {
	data, err := json.Marshal(working)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", pub.SidecarSetWorkingHotUpgradeContainer, err)
	}
	setAnnotation(pod, pub.SidecarSetWorkingHotUpgradeContainer, string(data))
	return nil
}

func setAnnotation(pod *corev1.Pod, key, value string) {
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations[key] = value
}

// SidecarSets are cluster-scoped, ControllerRevisions are not: a SidecarSet's revisions
// live in RevisionNamespace (Kruise's own, as with OpenKruise), labelled RevisionLabel.
const (
	RevisionNamespace = "kruise-system"
	RevisionLabel     = "kruise.io/sidecarset-name"
)
