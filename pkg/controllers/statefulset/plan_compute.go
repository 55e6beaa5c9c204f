package statefulset

import (
	"fmt"
	"sort"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
)

// slot is a desired ordinal that has a pod, with its position among the desired ones.
type slot struct {
	pos int
	pod *PodState
}

// Compute plans one sync of a set whose existing pods are pods (terminating ones
// included; pods whose names carry no ordinal left out).
//
// In the order kube's StatefulSet controller works:
//  1. Desired ordinals, ascending: a missing pod is created, a failed one deleted
//     (to be recreated). OrderedReady stops at the first pod it creates, deletes, or
//     finds terminating or unavailable: a pod is created only once all lower ones are
//     available. Parallel goes on, creating while fewer than scaleStrategy.maxUnavailable
//     desired pods are unavailable (when it is set).
//  2. Condemned pods (ordinals no longer desired: scaled down or reserved), highest
//     first. OrderedReady deletes one at a time, once it and every desired pod is
//     available (an unavailable condemned pod may go if it is the lowest unavailable
//     one, a failed one always: it will never become available); Parallel deletes
//     them all.
//  3. Pods labelled apps.kruise.io/specified-delete, highest ordinal first, within
//     MaxUnavailable (an unavailable one always), whatever the partition, strategy
//     or pause: they are recreated at their ordinals by later syncs.
//  4. Unless OnDelete or paused: old pods in update order (see planUpdates), with
//     what step 3 left of MaxUnavailable.
//
// Creations, deletions and updates are each at most batch.Burst; later syncs plan the
// rest. The work is proportional to the pods that exist and to the burst, never to
// replicas: the desired ordinals are walked only where a pod exists or is created.
func Compute(pods []PodState, p Params) Plan {
	plan := compute(pods, p)
	plan.Delete = batch.First(plan.Delete)
	plan.Update = batch.First(plan.Update)
	return plan
}

func compute(pods []PodState, p Params) Plan {
	d := NewDesired(p.Start, p.Replicas, p.Reserved)
	plan := Plan{Desired: d}
	var slots []slot
	var condemned []PodState
	for i := range pods {
		if pos, ok := d.Position(pods[i].Ordinal); ok {
			slots = append(slots, slot{pos: pos, pod: &pods[i]})
		} else if pods[i].Ordinal >= 0 {
			condemned = append(condemned, pods[i])
		}
	}
	sort.Slice(slots, func(i, j int) bool { return slots[i].pos < slots[j].pos })
	if !plan.scaleUp(d, slots, p) || !plan.scaleDown(slots, condemned, p) {
		return plan
	}
	budget := updateBudget(d, slots, p)
	specified := plan.specifiedDeletes(slots, &budget)
	if p.RollingUpdate && !p.Paused {
		plan.Update = planUpdates(slots, p, budget, specified)
	}
	return plan
}

// unavailable reports whether a desired slot counts as unavailable: missing, or a pod
// that is not available (terminating and failed pods never are).
func unavailable(s *PodState) bool {
	return s == nil || !s.Available || s.Terminating || s.Failed
}

// scaleUp plans step 1; false when an OrderedReady set must stop here. It walks the
// desired positions in order, but jumps over the missing ones it will not create in
// this sync (the burst or scaleStrategy.maxUnavailable is used up) to the next pod.
func (plan *Plan) scaleUp(d Desired, slots []slot, p Params) bool {
	monotonic := !p.Parallel
	limited := !monotonic && p.ScaleMaxUnavailable > 0
	// Parallel creation budget: unavailable pods that exist already use it up.
	budget := p.ScaleMaxUnavailable
	currentKept := 0 // pods at the current revision, for unordered partitions
	for _, s := range slots {
		if unavailable(s.pod) {
			budget--
		}
		if !s.pod.Updated && !s.pod.Terminating && !s.pod.Failed && !preparingAsUpdated(s.pod, p) {
			currentKept++
		}
	}
	next := 0 // the first slot not walked yet
	for pos, ord := 0, d.First(); pos < d.Len(); {
		if next < len(slots) && slots[next].pos == pos {
			s := slots[next].pod
			next++
			switch {
			case s.Failed && !s.Terminating:
				plan.Delete = append(plan.Delete, Deletion{Ordinal: s.Ordinal, Reason: DeleteFailed})
				if monotonic {
					plan.Waiting = fmt.Sprintf("recreating failed ordinal %d", s.Ordinal)
					return false
				}
			case monotonic && s.Terminating:
				plan.Waiting = fmt.Sprintf("ordinal %d is terminating", s.Ordinal)
				return false
			case monotonic && !s.Available:
				plan.Waiting = fmt.Sprintf("ordinal %d is not available", s.Ordinal)
				return false
			}
			pos, ord = pos+1, d.After(ord)
			continue
		}
		// pos has no pod.
		if len(plan.Create) >= batch.Burst || (limited && budget <= 0) {
			// No more creations in this sync: on to the next pod that exists.
			to := d.Len()
			if next < len(slots) {
				to = slots[next].pos
			}
			if limited && budget <= 0 {
				plan.ScaleUpLimited += to - pos
			}
			if next == len(slots) {
				break
			}
			pos, ord = to, slots[next].pod.Ordinal
			continue
		}
		if limited {
			budget--
		}
		atCurrent := createAtCurrent(pos, currentKept, p)
		if atCurrent {
			currentKept++
		}
		plan.Create = append(plan.Create, Creation{Ordinal: ord, AtCurrent: atCurrent})
		if monotonic {
			plan.Waiting = fmt.Sprintf("created ordinal %d", ord)
			return false
		}
		pos, ord = pos+1, d.After(ord)
	}
	return true
}

// createAtCurrent says whether the pod created at desired position pos belongs to the
// partition, and so to the current revision. Ordered updates keep the lowest
// Partition positions; unordered updates keep Partition pods, whichever they are. OnDelete
// creates every pod at the update revision, as kube does.
func createAtCurrent(pos, currentKept int, p Params) bool {
	if !p.RollingUpdate {
		return false
	}
	if p.Unordered {
		return currentKept < p.Partition
	}
	return pos < p.Partition
}

// scaleDown plans step 2; false when an OrderedReady set must stop here.
func (plan *Plan) scaleDown(slots []slot, condemned []PodState, p Params) bool {
	monotonic := !p.Parallel
	sort.Slice(condemned, func(i, j int) bool { return condemned[i].Ordinal > condemned[j].Ordinal })
	// The lowest unavailable pod may be deleted even while unavailable: waiting for it
	// would wait forever for a pod nobody wants.
	firstUnhealthy := -1
	for _, s := range slots {
		if unavailable(s.pod) {
			firstUnhealthy = s.pod.Ordinal
			break
		}
	}
	if firstUnhealthy < 0 {
		for i := len(condemned) - 1; i >= 0; i-- {
			if unavailable(&condemned[i]) {
				firstUnhealthy = condemned[i].Ordinal
				break
			}
		}
	}
	for _, c := range condemned {
		switch {
		case c.Terminating && monotonic:
			plan.Waiting = fmt.Sprintf("condemned ordinal %d is terminating", c.Ordinal)
			return false
		case c.Terminating:
			continue
		case monotonic && unavailable(&c) && c.Ordinal != firstUnhealthy && !c.Failed:
			plan.Waiting = fmt.Sprintf("ordinal %d is not available", firstUnhealthy)
			return false
		}
		plan.Delete = append(plan.Delete, Deletion{Ordinal: c.Ordinal, Reason: DeleteCondemned})
		if monotonic {
			plan.Waiting = fmt.Sprintf("deleting condemned ordinal %d", c.Ordinal)
			return false
		}
	}
	return true
}
