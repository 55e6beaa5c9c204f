package statefulset

import (
	intstrutil "k8s.io/apimachinery/pkg/util/intstr"
)

// PodState is what the rollout math needs to know about one existing pod.
type PodState struct {
	Ordinal int
	// Updated: the pod is at the update revision.
	Updated bool
	// Available: running, ready for minReadySeconds, not terminating and not in the
	// middle of an in-place update. Everything else counts as unavailable.
	Available bool
	// Terminating: the pod has a deletionTimestamp.
	Terminating bool
	// Failed: the pod's phase is Failed or Succeeded; it is deleted and recreated.
	Failed bool
	// Priority orders old pods for an unordered update (higher first).
	Priority int64
	// SpecifiedDelete: the pod is labelled apps.kruise.io/specified-delete; it is
	// recreated at its ordinal, within MaxUnavailable.
	SpecifiedDelete bool
	// PreparingDelete: a preDelete hook holds the pod already; of the specified pods,
	// those go first, so a held pod is never overtaken by one not yet hooked.
	PreparingDelete bool
	// PreparingUpdate: an inPlaceUpdate hook holds the pod (not updated) in
	// PreparingUpdate on its way to the update revision.
	PreparingUpdate bool
	// ClaimsStale: under volumeClaimUpdateStrategy OnPodRollingUpdate, a claim of the
	// pod asks for less storage than its template; the rollout resizes it.
	ClaimsStale bool
	// ClaimsResizing: a claim of the pod was resized and has not reached its new
	// size yet; the pod counts as unavailable to the rollout until it has.
	ClaimsResizing bool
}

// Params are a set's resolved rollout parameters.
type Params struct {
	Replicas int
	// Start is spec.ordinals.start.
	Start    int
	Reserved Reserved
	// Parallel is podManagementPolicy Parallel; otherwise OrderedReady (monotonic).
	Parallel bool
	// ScaleMaxUnavailable bounds unavailable pods while creating (Parallel only);
	// 0 means no bound.
	ScaleMaxUnavailable int
	// RollingUpdate is false for OnDelete: pods are only replaced when deleted.
	RollingUpdate bool
	Paused        bool
	// Partition pods are kept at the current revision: in ordered updates the lowest
	// Partition ordinals, in unordered updates the Partition lowest-priority old pods.
	Partition int
	// MaxUnavailable bounds pods unavailable while updating (at least 1).
	MaxUnavailable int
	// Unordered updates old pods by PodState.Priority instead of by ordinal.
	Unordered bool
	// PreparingUpdateAsUpdate (feature gate of that name), unordered updates: pods in
	// PreparingUpdate count as updated, as OpenKruise counts them: a pod created in
	// the partition's stead comes at the current revision when they already make up
	// the pods to update, and they come first in the update order (never left in the
	// partition behind a pod of higher priority).
	PreparingUpdateAsUpdate bool
}

// ResolveParams turns the IntOrString fields into counts as OpenKruise does for the
// Advanced StatefulSet: percentages of replicas rounded down, and never below 1.
func ResolveParams(p Params, maxUnavailable, scaleMaxUnavailable *intstrutil.IntOrString) (Params, error) {
	var err error
	p.MaxUnavailable = 1
	if maxUnavailable != nil {
		if p.MaxUnavailable, err = intstrutil.GetScaledValueFromIntOrPercent(maxUnavailable, p.Replicas, false); err != nil {
			return p, err
		}
		p.MaxUnavailable = max(p.MaxUnavailable, 1)
	}
	p.ScaleMaxUnavailable = 0
	if scaleMaxUnavailable != nil && p.Parallel {
		if p.ScaleMaxUnavailable, err = intstrutil.GetScaledValueFromIntOrPercent(scaleMaxUnavailable, p.Replicas, false); err != nil {
			return p, err
		}
		p.ScaleMaxUnavailable = max(p.ScaleMaxUnavailable, 1)
	}
	p.Partition = min(max(p.Partition, 0), max(p.Replicas, 0))
	return p, nil
}

// Creation is a pod to create.
type Creation struct {
	Ordinal int
	// AtCurrent: create it at the current revision (it lies in the partition).
	AtCurrent bool
}

// DeleteReason says why a pod is deleted.
type DeleteReason string

const (
	// DeleteCondemned: the ordinal is no longer wanted (scaled down or reserved).
	DeleteCondemned DeleteReason = "Condemned"
	// DeleteFailed: the pod failed or exited; it is recreated at the same ordinal.
	DeleteFailed DeleteReason = "Failed"
	// DeleteSpecified: the pod is labelled apps.kruise.io/specified-delete; it is
	// recreated at the same ordinal.
	DeleteSpecified DeleteReason = "Specified"
)

// Deletion is a pod to delete.
type Deletion struct {
	Ordinal int
	Reason  DeleteReason
}

// Plan is what one sync should do. The controller carries it out and plans again on
// the next sync from what its cache shows; a plan never assumes its writes succeeded.
type Plan struct {
	// Desired are the ordinals the set runs.
	Desired Desired
	// Create are pods to create now, ascending ordinals.
	Create []Creation
	// Delete are pods to delete now.
	Delete []Deletion
	// Update are old pods to bring to the update revision now, in update order.
	Update []int
	// ScaleUpLimited counts creations scaleStrategy.maxUnavailable held back.
	ScaleUpLimited int
	// Waiting says why an OrderedReady set stopped early ("" when it did not).
	Waiting string
}
