package envrestart

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/envmeta"
)

// The report's key, types and the env hash are the controllers' own (pkg/envmeta).
const RuntimeContainerMetaKey = envmeta.RuntimeContainerMetaKey

type (
	RuntimeContainerMetaSet = envmeta.RuntimeContainerMetaSet
	RuntimeContainerMeta    = envmeta.RuntimeContainerMeta
	RuntimeContainerHashes  = envmeta.RuntimeContainerHashes
)

// updateState is the part of apps.kruise.io/inplace-update-state the daemon reads.
type updateState struct {
	UpdateEnvFromMetadata  bool `json:"updateEnvFromMetadata,omitempty"`
	ContainerBatchesRecord []struct {
		Containers []string `json:"containers"`
	} `json:"containerBatchesRecord,omitempty"`
}

// envUpdate returns the containers of the pod's current in-place update whose env from
// metadata must be brought up to date, or nil when the update asks for none.
func envUpdate(pod *corev1.Pod) (map[string]bool, error) {
	v := pod.Annotations[pub.InPlaceUpdateStateKey]
	if v == "" {
		return nil, nil
	}
	var s updateState
	if err := json.Unmarshal([]byte(v), &s); err != nil {
		return nil, fmt.Errorf("annotation %s: %w", pub.InPlaceUpdateStateKey, err)
	}
	if !s.UpdateEnvFromMetadata {
		return nil, nil
	}
	names := map[string]bool{}
	for _, b := range s.ContainerBatchesRecord {
		for _, c := range b.Containers {
			names[c] = true
		}
	}
	return names, nil
}

func readsMetadata(c *corev1.Container) bool { return envmeta.ReadsMetadata(c) }

// EnvFromMetadataHash: see envmeta.EnvFromMetadataHash.
func EnvFromMetadataHash(c *corev1.Container, value func(envName string) string) uint64 {
	return envmeta.EnvFromMetadataHash(c, value)
}

// ExpectedEnvFromMetadataHash: see envmeta.ExpectedEnvFromMetadataHash.
func ExpectedEnvFromMetadataHash(pod *corev1.Pod, c *corev1.Container) uint64 {
	return envmeta.ExpectedEnvFromMetadataHash(pod, c)
}
