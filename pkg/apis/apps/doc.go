// Package apps holds the internal (hub) types of apps.kruise.io. Every served
// version converts to and from these; validation and registry code work on them only,
// so one rule set serves all versions.
//
// +k8s:deepcopy-gen=package
// +groupName=apps.kruise.io
package apps
