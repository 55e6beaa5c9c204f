package statefulset

import (
	"fmt"
	"sort"
)

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
//  3. Unless OnDelete or paused: old pods in update order (see planUpdates).
func Compute(pods []PodState, p Params) Plan {
	plan := Plan{Desired: DesiredOrdinals(p.Start, p.Replicas, p.Reserved)}
	position := make(map[int]int, len(plan.Desired))
	for i, o := range plan.Desired {
		position[o] = i
	}
	slots := make([]*PodState, len(plan.Desired))
	var condemned []PodState
	for i := range pods {
		if pos, ok := position[pods[i].Ordinal]; ok {
			slots[pos] = &pods[i]
		} else if pods[i].Ordinal >= 0 {
			condemned = append(condemned, pods[i])
		}
	}
	if !plan.scaleUp(slots, p) || !plan.scaleDown(slots, condemned, p) {
		return plan
	}
	if p.RollingUpdate && !p.Paused {
		plan.Update = planUpdates(slots, p)
	}
	return plan
}

// unavailable reports whether a desired slot counts as unavailable: missing, or a pod
// that is not available (terminating and failed pods never are).
func unavailable(s *PodState) bool {
	return s == nil || !s.Available || s.Terminating || s.Failed
}

// scaleUp plans step 1; false when an OrderedReady set must stop here.
func (plan *Plan) scaleUp(slots []*PodState, p Params) bool {
	monotonic := !p.Parallel
	// Parallel creation budget: unavailable pods that exist already use it up.
	budget := p.ScaleMaxUnavailable
	for _, s := range slots {
		if s != nil && unavailable(s) {
			budget--
		}
	}
	currentKept := 0 // pods at the current revision, for unordered partitions
	for _, s := range slots {
		if s != nil && !s.Updated && !s.Terminating && !s.Failed {
			currentKept++
		}
	}
	for pos, s := range slots {
		ord := plan.Desired[pos]
		switch {
		case s == nil:
			if !monotonic && p.ScaleMaxUnavailable > 0 {
				if budget <= 0 {
					plan.ScaleUpLimited++
					continue
				}
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
		case s.Failed && !s.Terminating:
			plan.Delete = append(plan.Delete, Deletion{Ordinal: ord, Reason: DeleteFailed})
			if monotonic {
				plan.Waiting = fmt.Sprintf("recreating failed ordinal %d", ord)
				return false
			}
		case monotonic && s.Terminating:
			plan.Waiting = fmt.Sprintf("ordinal %d is terminating", ord)
			return false
		case monotonic && !s.Available:
			plan.Waiting = fmt.Sprintf("ordinal %d is not available", ord)
			return false
		}
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
func (plan *Plan) scaleDown(slots []*PodState, condemned []PodState, p Params) bool {
	monotonic := !p.Parallel
	sort.Slice(condemned, func(i, j int) bool { return condemned[i].Ordinal > condemned[j].Ordinal })
	// The lowest unavailable pod may be deleted even while unavailable: waiting for it
	// would wait forever for a pod nobody wants.
	firstUnhealthy := -1
	for _, s := range slots {
		if s != nil && unavailable(s) {
			firstUnhealthy = s.Ordinal
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
