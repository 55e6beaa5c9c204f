package sidecarset

import (
	"encoding/json"
	"fmt"
	"hash/fnv"

	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// Hash identifies the version of ss's sidecar containers: a pod recorded with another
// hash runs other sidecars. Only spec.containers count (init containers are never
// upgraded; selectors and strategies do not change what runs).
func Hash(ss *apps.SidecarSet) (string, error) { return hashContainers(ss.Spec.Containers, false) }

// HashWithoutImage is Hash with images left out: when a pod's recorded value still
// matches, only images changed and the sidecars can be upgraded in place.
func HashWithoutImage(ss *apps.SidecarSet) (string, error) {
	return hashContainers(ss.Spec.Containers, true)
}

// hashContainers hashes the v1beta1 JSON of the containers: its optional fields are
// omitted when empty, so a field added to the API later leaves every existing hash,
// and so every injected pod, as it was.
func hashContainers(containers []apps.SidecarContainer, withoutImage bool) (string, error) {
	out := make([]v1beta1.SidecarContainer, len(containers))
	for i := range containers {
		if err := v1beta1.Convert_apps_SidecarContainer_To_v1beta1_SidecarContainer(&containers[i], &out[i], nil); err != nil {
			return "", fmt.Errorf("converting sidecar %s: %w", containers[i].Name, err)
		}
		if withoutImage {
			out[i].Image = ""
		}
	}
	data, err := json.Marshal(out)
	if err != nil {
		return "", fmt.Errorf("encoding sidecars: %w", err)
	}
	h := fnv.New64a()
	_, _ = h.Write(data)
	return rand.SafeEncodeString(fmt.Sprint(h.Sum64())), nil
}
