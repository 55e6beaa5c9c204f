package sidecarset

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// Hash identifies the version of ss's sidecars: a pod recorded with another hash runs
// other sidecars. It is OpenKruise's kruise.io/sidecarset-hash value for the same
// SidecarSet: spec.containers count, and spec.initContainers when one of them is a
// native sidecar (restartPolicy Always), which runs for the pod's life; selectors,
// strategies, volumes and metadata patches do not change what runs.
func Hash(ss *apps.SidecarSet) (string, error) {
	return hashSidecars(ss.Spec.Containers, ss.Spec.InitContainers, false)
}

// HashWithoutImage is Hash with every image left out: when a pod's recorded value
// still matches, only images changed and the sidecars can be upgraded in place.
func HashWithoutImage(ss *apps.SidecarSet) (string, error) {
	return hashSidecars(ss.Spec.Containers, ss.Spec.InitContainers, true)
}

// IsNativeSidecar reports whether an init container runs for the pod's life.
func IsNativeSidecar(c *corev1.Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
}

// SidecarList names what OpenKruise records as a SidecarSet's sidecars in a pod's hash
// annotations: its native sidecars and its containers, sorted.
func SidecarList(ss *apps.SidecarSet) []string {
	var out []string
	for i := range ss.Spec.InitContainers {
		if IsNativeSidecar(&ss.Spec.InitContainers[i].Container) {
			out = append(out, ss.Spec.InitContainers[i].Name)
		}
	}
	for i := range ss.Spec.Containers {
		out = append(out, ss.Spec.Containers[i].Name)
	}
	sort.Strings(out)
	return out
}

// hashSidecars is OpenKruise's encoding: the sha256, in hex, of the JSON object
// {"containers": [...]} (plus "initContainers": all of them, when one is native) of
// the v1alpha1 sidecars, made safe for annotations by rand.SafeEncodeString. The
// v1alpha1 fields and their order are OpenKruise's, and optional ones are omitted when
// empty, so a field added later leaves every existing hash, and so every injected pod,
// as it was.
func hashSidecars(containers, initContainers []apps.SidecarContainer, withoutImage bool) (string, error) {
	cs, err := external(containers, withoutImage)
	if err != nil {
		return "", err
	}
	m := map[string]interface{}{"containers": cs}
	for i := range initContainers {
		if IsNativeSidecar(&initContainers[i].Container) {
			if m["initContainers"], err = external(initContainers, withoutImage); err != nil {
				return "", err
			}
			break
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("encoding sidecars: %w", err)
	}
	return rand.SafeEncodeString(fmt.Sprintf("%x", sha256.Sum256(data))), nil
}

func external(in []apps.SidecarContainer, withoutImage bool) ([]v1alpha1.SidecarContainer, error) {
	out := make([]v1alpha1.SidecarContainer, len(in))
	for i := range in {
		if err := v1alpha1.Convert_apps_SidecarContainer_To_v1alpha1_SidecarContainer(&in[i], &out[i], nil); err != nil {
			return nil, fmt.Errorf("converting sidecar %s: %w", in[i].Name, err)
		}
		if withoutImage {
			out[i].Image = ""
		}
	}
	return out, nil
}
