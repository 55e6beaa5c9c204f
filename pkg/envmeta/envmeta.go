// Package envmeta is the contract between the controllers and the node daemon for
// env vars sourced from pod metadata (valueFrom.fieldRef on metadata.labels['k'] or
// metadata.annotations['k']): which env vars read metadata, the hash that tells whether
// a running container saw the current values, and the apps.kruise.io/runtime-containers-meta
// report the daemon writes. One implementation, so both sides always agree; the
// protocol itself is described in pkg/controllers/internal/inplaceupdate/envmeta.go.
package envmeta

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// RuntimeContainerMetaKey is the pod annotation where the node daemon reports what runs.
const RuntimeContainerMetaKey = "apps.kruise.io/runtime-containers-meta"

// RuntimeContainerMetaSet is the value of RuntimeContainerMetaKey (OpenKruise's JSON).
type RuntimeContainerMetaSet struct {
	Containers []RuntimeContainerMeta `json:"containers"`
}

// RuntimeContainerMeta describes one running container as the node daemon saw it.
type RuntimeContainerMeta struct {
	Name         string                 `json:"name"`
	ContainerID  string                 `json:"containerID"`
	RestartCount int32                  `json:"restartCount"`
	Hashes       RuntimeContainerHashes `json:"hashes"`
}

// RuntimeContainerHashes are hashes of a running container. Only
// ExtractedEnvFromMetadataHash is read here; its value is EnvFromMetadataHash (this
// package's hash, not OpenKruise's: only our node daemon and this package compute it).
type RuntimeContainerHashes struct {
	PlainHash                    uint64 `json:"plainHash"`
	PlainHashWithoutResources    uint64 `json:"plainHashWithoutResources"`
	ExtractedEnvFromMetadataHash uint64 `json:"extractedEnvFromMetadataHash,omitempty"`
}

// GetRuntimeContainerMetaSet returns the node daemon's report, or nil when there is none.
func GetRuntimeContainerMetaSet(pod *corev1.Pod) (*RuntimeContainerMetaSet, error) {
	v, ok := pod.Annotations[RuntimeContainerMetaKey]
	if !ok {
		return nil, nil
	}
	s := &RuntimeContainerMetaSet{}
	if err := json.Unmarshal([]byte(v), s); err != nil {
		return nil, fmt.Errorf("pod %s/%s: annotation %s: %w", pod.Namespace, pod.Name, RuntimeContainerMetaKey, err)
	}
	return s, nil
}

// What MetadataRef reports an env var reads.
const (
	Labels      = "labels"
	Annotations = "annotations"
)

// MetadataRef returns which label or annotation an env var reads, if it reads one.
// Field paths look like metadata.labels['key'] (the only form the API accepts for env).
func MetadataRef(env *corev1.EnvVar) (kind, key string, ok bool) {
	if env.ValueFrom == nil || env.ValueFrom.FieldRef == nil {
		return "", "", false
	}
	path := env.ValueFrom.FieldRef.FieldPath
	for _, kind := range []string{Labels, Annotations} {
		prefix := "metadata." + kind + "['"
		if strings.HasPrefix(path, prefix) && strings.HasSuffix(path, "']") && len(path) > len(prefix)+2 {
			return kind, path[len(prefix) : len(path)-2], true
		}
	}
	return "", "", false
}

// ReferencesMetadata reports whether the container reads the given label or annotation.
func ReferencesMetadata(c *corev1.Container, kind, key string) bool {
	for i := range c.Env {
		if k, name, ok := MetadataRef(&c.Env[i]); ok && k == kind && name == key {
			return true
		}
	}
	return false
}

// ReadsMetadata reports whether the container reads any label or annotation.
func ReadsMetadata(c *corev1.Container) bool {
	for i := range c.Env {
		if _, _, ok := MetadataRef(&c.Env[i]); ok {
			return true
		}
	}
	return false
}

// EnvFromMetadataHash hashes the container's env vars sourced from pod metadata, in spec
// order, with value(name) giving each one's value: the node daemon passes the values it
// finds inside the running container, ExpectedEnvFromMetadataHash the pod's metadata.
// It is never 0 (0 means "not computed" in RuntimeContainerHashes).
func EnvFromMetadataHash(c *corev1.Container, value func(envName string) string) uint64 {
	h := fnv.New64a()
	for i := range c.Env {
		if _, _, ok := MetadataRef(&c.Env[i]); !ok {
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
		kind, key, ok := MetadataRef(&c.Env[i])
		if !ok {
			continue
		}
		if kind == Labels {
			values[c.Env[i].Name] = pod.Labels[key]
		} else {
			values[c.Env[i].Name] = pod.Annotations[key]
		}
	}
	return EnvFromMetadataHash(c, func(name string) string { return values[name] })
}
