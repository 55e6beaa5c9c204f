package cloneset

import (
	intstrutil "k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podorder"
)

// PodInfo is what the rollout math needs to know about one pod.
type PodInfo struct {
	// Candidate is what the update and deletion orders know of the pod (podorder):
	// its name, labels, availability (ready for at least minReadySeconds; unavailable
	// pods count against maxUnavailable), priority, pod-deletion-cost, readiness,
	// node and age, and whether a lifecycle hook holds it. Its PreparingUpdate is set
	// only on pods not yet updated: an inPlaceUpdate hook holds the pod in
	// PreparingUpdate on its way to the update revision, and the update takes it first.
	podorder.Candidate
	// Updated: the pod is at the update revision.
	Updated bool
	// SpecifiedDelete: named in podsToDelete or labelled apps.kruise.io/specified-delete.
	SpecifiedDelete bool
	// HeldOnDelete: the preDelete hook holds the pod, so deleting it moves it to
	// PreparingDelete and it stays (until the hook's owner lets go).
	HeldOnDelete bool
}

// Limits are a CloneSet's resolved rollout parameters.
type Limits struct {
	Replicas int
	// Partition pods stay at old revisions.
	Partition int
	// MaxUnavailable bounds pods unavailable because of updates.
	MaxUnavailable int
	// MaxSurge bounds extra pods above Replicas during an update.
	MaxSurge int
	// ScaleMaxUnavailable bounds unavailable pods during scale-up; -1 means no limit.
	ScaleMaxUnavailable int
	Paused              bool
	// ExcludePreparingDelete: pods a preDelete hook holds in PreparingDelete do not
	// count towards Replicas, so their replacements are created at once.
	ExcludePreparingDelete bool
	// Scatter spreads pods with these labels over the update order.
	Scatter []pub.UpdateScatterTerm
	// PartitionRollback (feature gate CloneSetPartitionRollback): updated pods beyond
	// Replicas-Partition go back to the current revision.
	PartitionRollback bool
	// PreparingUpdateAsUpdate (feature gate of that name): scaling counts pods in
	// PreparingUpdate as updated, so that creations and deletions do not make up at
	// the update revision for pods already on their way there. Updating still counts
	// them old: they are what it moves.
	PreparingUpdateAsUpdate bool
}

// Plan is what one sync should do. The controller executes it, then re-plans on the
// next sync from what its cache shows: Plan never assumes its own writes succeeded.
type Plan struct {
	// Delete are pods to delete now (specified first, then surplus).
	Delete []string
	// Held are pods in PreparingDelete that no longer count (ExcludePreparingDelete):
	// deleted once their preDelete hook lets go. Unlike Delete, they hold up nothing.
	Held []string
	// CreateUpdated and CreateCurrent are how many pods to create at the update and
	// the current revision.
	CreateUpdated, CreateCurrent int
	// ScaleUpLimited is how many creations scaleStrategy.maxUnavailable held back.
	ScaleUpLimited int
	// Update are old pods to bring to the update revision now (in place or by recreate).
	Update []string
	// Rollback are updated pods to bring back to the current revision now (in place or
	// by recreate): more pods are updated than the partition lets be (PartitionRollback).
	Rollback []string
	// ExpectedUpdated is replicas minus partition.
	ExpectedUpdated int
}

// ResolveLimits turns IntOrString fields into counts the way OpenKruise does:
// partition and maxSurge round up; maxUnavailable rounds up, or down when maxSurge is
// set; maxUnavailable and maxSurge never both end at 0.
func ResolveLimits(replicas int, partition, maxUnavailable, maxSurge, scaleMaxUnavailable *intstrutil.IntOrString, paused bool) (Limits, error) {
	l := Limits{Replicas: replicas, Paused: paused, ScaleMaxUnavailable: -1}
	var err error
	if l.Partition, err = scaled(partition, replicas, true); err != nil {
		return l, err
	}
	if l.Partition > replicas {
		l.Partition = replicas
	}
	if l.MaxSurge, err = scaled(maxSurge, replicas, true); err != nil {
		return l, err
	}
	if l.MaxUnavailable, err = scaled(maxUnavailable, replicas, l.MaxSurge == 0); err != nil {
		return l, err
	}
	if l.MaxUnavailable == 0 && l.MaxSurge == 0 {
		l.MaxUnavailable = 1
	}
	if scaleMaxUnavailable != nil {
		if l.ScaleMaxUnavailable, err = scaled(scaleMaxUnavailable, replicas, true); err != nil {
			return l, err
		}
	}
	return l, nil
}

func scaled(v *intstrutil.IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, nil
	}
	n, err := intstrutil.GetScaledValueFromIntOrPercent(v, total, roundUp)
	if err != nil {
		return 0, err
	}
	return max(n, 0), nil
}

// Compute plans one sync for pods (the CloneSet's active pods) under limits.
//
// Rules, in order:
//  1. Pods specified for deletion are deleted. One a preDelete hook holds (or will
//     hold) in PreparingDelete still counts until it goes; with ExcludePreparingDelete
//     no pod in PreparingDelete counts (Held), so replacements come at once.
//  2. Too few pods: create the missing ones at the update revision until
//     ExpectedUpdated pods are updated, at the current revision after that (the
//     partition). While old pods remain to be replaced, up to MaxSurge extra pods are
//     allowed. Creation is held while scaleStrategy.maxUnavailable pods are unavailable.
//  3. Too many pods: delete the surplus: old pods beyond the partition first, then
//     updated ones; unavailable and low-priority pods first within each group.
//     With PreparingUpdateAsUpdate, rules 2 and 3 count pods in PreparingUpdate as
//     updated.
//  4. Not paused: bring old pods to the update revision while fewer than
//     ExpectedUpdated are updated, keeping at least Replicas-MaxUnavailable pods
//     available (surge pods count, so with maxSurge old pods go once new ones serve);
//     pods in PreparingUpdate first, then unavailable ones; a pod in PreparingUpdate
//     the budget holds back still takes its place among the ExpectedUpdated.
//  5. Not paused, with PartitionRollback: while more than ExpectedUpdated are updated
//     (the partition was raised), bring updated pods back to the current revision,
//     under the same availability budget, in the reverse of the update order.
//
// Creations, deletions and updates are each at most batch.Burst: the rest is planned
// again by the syncs that follow, so a plan's size never depends on Replicas.
func Compute(pods []PodInfo, l Limits) Plan {
	p := Plan{ExpectedUpdated: max(l.Replicas-l.Partition, 0)}
	var keep []PodInfo
	deleting := 0 // pods of keep in p.Delete already
	for _, pod := range pods {
		switch {
		case pod.PreparingDelete && l.ExcludePreparingDelete:
			p.Held = append(p.Held, pod.Name)
		case pod.SpecifiedDelete && (pod.PreparingDelete || pod.HeldOnDelete) && !l.ExcludePreparingDelete:
			// Held by its preDelete hook, it still counts (OpenKruise's default): its
			// replacement comes once it is terminating.
			p.Delete = append(p.Delete, pod.Name)
			keep = append(keep, pod)
			deleting++
		case pod.SpecifiedDelete:
			p.Delete = append(p.Delete, pod.Name)
		default:
			keep = append(keep, pod)
		}
	}
	// scale is keep as scaling counts it (PreparingUpdateAsUpdate).
	scale := keep
	if l.PreparingUpdateAsUpdate {
		scale = make([]PodInfo, len(keep))
		for i, pod := range keep {
			pod.Updated = pod.Updated || pod.PreparingUpdate
			scale[i] = pod
		}
	}
	updated, scaleUpdated, available := 0, 0, 0
	for i, pod := range keep {
		if pod.Updated {
			updated++
		}
		if scale[i].Updated {
			scaleUpdated++
		}
		if pod.Available {
			available++
		}
	}
	old := len(keep) - scaleUpdated
	needUpdate := max(p.ExpectedUpdated-scaleUpdated, 0)
	target := l.Replicas
	if !l.Paused && needUpdate > 0 {
		target += min(l.MaxSurge, needUpdate)
	}

	switch {
	case len(keep) < target:
		missing := target - len(keep)
		if l.ScaleMaxUnavailable >= 0 {
			allowed := max(l.ScaleMaxUnavailable-(len(keep)-available), 0)
			if missing > allowed {
				p.ScaleUpLimited = missing - allowed
				missing = allowed
			}
		}
		createUpdated := min(missing, needUpdate)
		// Creations beyond the burst come in later syncs, at the same revisions: they
		// count as updated already, so that no old pod is updated in their stead.
		updated += createUpdated
		p.CreateUpdated = batch.Clamp(createUpdated)
		p.CreateCurrent = min(missing-createUpdated, batch.Burst-p.CreateUpdated)
	case len(keep)-deleting > target:
		excessOld := max(old-l.Partition, 0)
		candidates := scale
		if deleting > 0 {
			candidates = nil
			for _, pod := range scale {
				if !pod.SpecifiedDelete {
					candidates = append(candidates, pod)
				}
			}
		}
		for _, v := range pickDeletions(candidates, len(keep)-deleting-target, excessOld) {
			p.Delete = append(p.Delete, v.Name)
		}
		p.Delete = batch.First(p.Delete)
		return p
	}

	p.Delete = batch.First(p.Delete)
	needUpdate = min(max(p.ExpectedUpdated-updated, 0), batch.Burst)
	budget := available - (l.Replicas - l.MaxUnavailable)
	if l.PartitionRollback && !l.Paused && len(p.Delete) == 0 && updated > p.ExpectedUpdated {
		p.Rollback = pickRollbacks(keep, min(updated-p.ExpectedUpdated, batch.Burst), budget)
		return p
	}
	if l.Paused || len(p.Delete) > 0 || needUpdate == 0 {
		return p
	}
	held := 0 // pods in PreparingUpdate the budget does not let go yet
	for _, c := range oldPodsByUpdateOrder(keep, l.Scatter) {
		if len(p.Update)+held >= needUpdate {
			break
		}
		// Updating an already-unavailable pod costs no availability.
		if c.Available {
			if budget <= 0 {
				// An earlier sync chose a pod in PreparingUpdate: it keeps its place
				// until the budget lets it go, or a pod created meanwhile (unavailable,
				// so free to update) would take it and be held by the hook in its turn.
				if c.PreparingUpdate {
					held++
				}
				continue
			}
			budget--
		}
		p.Update = append(p.Update, c.Name)
	}
	return p
}
