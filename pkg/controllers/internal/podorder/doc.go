// Package podorder decides the order in which a workload updates and deletes its pods:
// Kruise's update priority (weight or order terms), Kruise's update scatter, and the
// kube-controller-manager's "which pod to delete first" ordering. It is shared by every
// Kruise workload and knows pods and pod labels, never a workload kind.
//
// Everything here is a pure function: the workload builds one Candidate per pod
// (CandidateFromPod), or a record of its own that embeds one, sorts, and takes its
// records from the front of the result.
//
//	SortForUpdate: PreparingUpdate pods, then unavailable, then higher priority; pods of
//	               equal standing are ordered by name, then scattered.
//	SortForDelete: PreparingDelete pods, then kube's ActivePods order (unscheduled, pending, unready, ... first),
//	               with pod-deletion-cost and Kruise priority (lower first) folded in.
package podorder
