// Package envrestart restarts containers whose env reads pod metadata that an in-place
// update changed, and reports what runs, for the controllers' in-place update library.
//
// The kubelet resolves env vars with valueFrom.fieldRef on metadata.labels['k'] or
// metadata.annotations['k'] once, when a container starts, and never restarts a
// container because a label changed. The contract with kruise-controller (see the
// comment at the top of pkg/controllers/internal/inplaceupdate/envmeta.go):
//
//   - Trigger: the pod's apps.kruise.io/inplace-update-state has updateEnvFromMetadata
//     and a container named in its containerBatchesRecord runs with metadata env values
//     (read from the runtime) whose hash differs from the hash of the values the pod's
//     metadata gives now. The daemon stops that container; the kubelet starts it again
//     with the new values. It does not wait for InPlaceUpdateReady=False.
//   - Report: for such a pod the daemon writes apps.kruise.io/runtime-containers-meta
//     with, for every container reading metadata, the containerID it read and the hash
//     of the values inside it (extractedEnvFromMetadataHash), again whenever a
//     containerID changes.
//
// The hash and the report's types are the controllers' own, from pkg/envmeta.
package envrestart
