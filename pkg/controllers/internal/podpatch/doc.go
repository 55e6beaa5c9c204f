// Package podpatch is how every Kruise workload controller writes to its pods: one
// Patcher that names the controller as the field manager (so managedFields credit one
// manager whatever code path wrote), and one Bytes that turns a modified copy of a pod
// into the smallest strategic merge patch, guarded by the pod's uid.
//
// inplaceupdate (images, revision label, in-place state) and lifecycle (state label,
// hook labels and finalizers, KruisePodReady) both compute a modified pod with pure
// functions and send it through here.
package podpatch
