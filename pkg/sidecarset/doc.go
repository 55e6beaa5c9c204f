// Package sidecarset is the pod side of SidecarSets, shared by the pod webhook in
// kruise-apiserver (which injects sidecars into new pods) and the SidecarSet
// controller in kruise-controller (which upgrades them): which pods a SidecarSet
// selects, the hashes that say which version of its sidecars a pod runs, and the pod
// annotations that record it. Both sides must agree on all of it, so it lives once, here.
package sidecarset
