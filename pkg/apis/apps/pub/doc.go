// Package pub holds the versioned types that every apps.kruise.io version shares
// unchanged (lifecycle hooks, in-place update and update-priority strategies), and
// the well-known labels and annotations Kruise puts on pods.
//
// The internal hub types reference these directly: their wire form is identical in
// every version, so a per-version copy would only add conversions that can drift.
//
// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=io.kruise.apps.pub
// +groupName=apps.kruise.io
package pub
