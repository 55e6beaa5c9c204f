// Package policy holds the internal (hub) types of policy.kruise.io. Every served
// version converts to and from these; validation and registry code work on them only.
//
// +k8s:deepcopy-gen=package
// +groupName=policy.kruise.io
package policy
