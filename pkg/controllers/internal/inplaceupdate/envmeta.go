package inplaceupdate

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/envmeta"
)

// Env vars sourced from pod metadata (valueFrom.fieldRef on metadata.labels['k'] or
// metadata.annotations['k']) are resolved by the kubelet once, when the container starts.
// When an update changes such a label or annotation, the containers reading it must be
// restarted to see the new value; the kubelet never does that by itself (the container
// spec is unchanged), so the node daemon does, as kruise-daemon does in OpenKruise.
//
// Contract with the node daemon (implemented elsewhere):
//   - Trigger: the pod's State has updateEnvFromMetadata set and a container named in its
//     containerBatchesRecord runs with env values whose EnvFromMetadataHash (computed
//     from the values inside the container) differs from ExpectedEnvFromMetadataHash.
//     The daemon then stops the container and the kubelet starts it again with the new
//     values. Unlike kruise-daemon it must not wait for InPlaceUpdateReady=False: with
//     gracePeriodSeconds 0 that condition is never written (see NeedsNotReadyFirst).
//   - Report: for such a pod the daemon writes RuntimeContainerMetaKey with, for every
//     container that reads metadata, the containerID it hashed and
//     ExtractedEnvFromMetadataHash, again whenever a containerID changes. CheckCompleted
//     takes a batched container reading metadata as switched when that report names its
//     current containerID with the expected hash.

// The contract's types and hash live in pkg/envmeta, shared with the node daemon.
const RuntimeContainerMetaKey = envmeta.RuntimeContainerMetaKey

type (
	RuntimeContainerMetaSet = envmeta.RuntimeContainerMetaSet
	RuntimeContainerMeta    = envmeta.RuntimeContainerMeta
	RuntimeContainerHashes  = envmeta.RuntimeContainerHashes
)

const (
	metaLabels      = envmeta.Labels
	metaAnnotations = envmeta.Annotations
)

// GetRuntimeContainerMetaSet returns the node daemon's report, or nil when there is none.
func GetRuntimeContainerMetaSet(pod *corev1.Pod) (*RuntimeContainerMetaSet, error) {
	return envmeta.GetRuntimeContainerMetaSet(pod)
}

func metadataRef(env *corev1.EnvVar) (kind, key string, ok bool) { return envmeta.MetadataRef(env) }

func referencesMetadata(c *corev1.Container, kind, key string) bool {
	return envmeta.ReferencesMetadata(c, kind, key)
}

func hasMetadataEnv(c *corev1.Container) bool { return envmeta.ReadsMetadata(c) }

// EnvFromMetadataHash: see envmeta.EnvFromMetadataHash.
func EnvFromMetadataHash(c *corev1.Container, value func(envName string) string) uint64 {
	return envmeta.EnvFromMetadataHash(c, value)
}

// ExpectedEnvFromMetadataHash: see envmeta.ExpectedEnvFromMetadataHash.
func ExpectedEnvFromMetadataHash(pod *corev1.Pod, c *corev1.Container) uint64 {
	return envmeta.ExpectedEnvFromMetadataHash(pod, c)
}
