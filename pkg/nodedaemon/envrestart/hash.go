package envrestart

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// RuntimeContainerMetaKey is the pod annotation where the daemon reports what runs.
const RuntimeContainerMetaKey = "apps.kruise.io/runtime-containers-meta"

// RuntimeContainerMetaSet is the value of RuntimeContainerMetaKey (OpenKruise's JSON).
type RuntimeContainerMetaSet struct {
	Containers []RuntimeContainerMeta `json:"containers"`
}

// RuntimeContainerMeta describes one running container as the daemon saw it.
type RuntimeContainerMeta struct {
	Name         string                 `json:"name"`
	ContainerID  string                 `json:"containerID"`
	RestartCount int32                  `json:"restartCount"`
	Hashes       RuntimeContainerHashes `json:"hashes"`
}

// RuntimeContainerHashes are hashes of a running container; only
// ExtractedEnvFromMetadataHash is computed (the controllers read nothing else).
type RuntimeContainerHashes struct {
	PlainHash                    uint64 `json:"plainHash"`
	PlainHashWithoutResources    uint64 `json:"plainHashWithoutResources"`
	ExtractedEnvFromMetadataHash uint64 `json:"extractedEnvFromMetadataHash,omitempty"`
}

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

const (
	metaLabels      = "labels"
	metaAnnotations = "annotations"
)

// metadataRef returns which label or annotation an env var reads, if any
// (metadata.labels['key'] or metadata.annotations['key']).
func metadataRef(env *corev1.EnvVar) (kind, key string, ok bool) {
	if env.ValueFrom == nil || env.ValueFrom.FieldRef == nil {
		return "", "", false
	}
	path := env.ValueFrom.FieldRef.FieldPath
	for _, kind := range []string{metaLabels, metaAnnotations} {
		prefix := "metadata." + kind + "['"
		if strings.HasPrefix(path, prefix) && strings.HasSuffix(path, "']") && len(path) > len(prefix)+2 {
			return kind, path[len(prefix) : len(path)-2], true
		}
	}
	return "", "", false
}

// readsMetadata reports whether the container reads any label or annotation.
func readsMetadata(c *corev1.Container) bool {
	for i := range c.Env {
		if _, _, ok := metadataRef(&c.Env[i]); ok {
			return true
		}
	}
	return false
}

// EnvFromMetadataHash hashes the container's env vars sourced from pod metadata, in spec
// order, each as name NUL value NUL (FNV-1a 64); value gives each one's value. Never 0.
func EnvFromMetadataHash(c *corev1.Container, value func(envName string) string) uint64 {
	h := fnv.New64a()
	for i := range c.Env {
		if _, _, ok := metadataRef(&c.Env[i]); !ok {
			continue
		}
		h.Write([]byte(c.Env[i].Name))
		h.Write([]byte{0})
		h.Write([]byte(value(c.Env[i].Name)))
		h.Write([]byte{0})
	}
	if sum := h.Sum64(); sum != 0 {
		return sum
	}
	return 1
}

// ExpectedEnvFromMetadataHash is EnvFromMetadataHash with the values the kubelet would
// resolve from the pod's current labels and annotations.
func ExpectedEnvFromMetadataHash(pod *corev1.Pod, c *corev1.Container) uint64 {
	values := map[string]string{}
	for i := range c.Env {
		kind, key, ok := metadataRef(&c.Env[i])
		if !ok {
			continue
		}
		if kind == metaLabels {
			values[c.Env[i].Name] = pod.Labels[key]
		} else {
			values[c.Env[i].Name] = pod.Annotations[key]
		}
	}
	return EnvFromMetadataHash(c, func(name string) string { return values[name] })
}
