package statefulset

import "sort"

// planUpdates picks the old pods to bring to the update revision now (step 3 of
// Compute), in update order.
//
// Which pods: ordered updates take the desired positions from the highest down to
// Partition (descending ordinal, as kube); unordered updates take old pods by
// Priority, highest first (ties: higher ordinal first), leaving the Partition last
// ones old.
//
// How many: budget (updateBudget, less what specified deletions took). An old pod
// that is unavailable already is updated whenever the walk reaches it: it costs no
// availability, and a broken pod is exactly the one a new revision may fix. Pods in
// skip (deleted by this plan) are left out.
func planUpdates(slots []slot, p Params, budget int, skip map[int]bool) []int {
	var out []int
	for _, s := range updateCandidates(slots, p) {
		switch {
		case skip[s.Ordinal]:
		case busy(s):
			out = append(out, s.Ordinal)
		case budget > 0:
			budget--
			out = append(out, s.Ordinal)
		}
	}
	return out
}

// updateBudget is how many more pods the rollout may make unavailable: every desired
// pod that is missing or busy counts against MaxUnavailable, as in kube's
// maxUnavailable for StatefulSets, so the rollout never makes more than
// MaxUnavailable pods unavailable.
func updateBudget(d Desired, slots []slot, p Params) int {
	budget := p.MaxUnavailable - (d.Len() - len(slots)) // missing pods are unavailable
	for _, s := range slots {
		if busy(s.pod) {
			budget--
		}
	}
	return budget
}

// busy: unavailable, or waiting for its claims to reach their new size (the
// rollout's work on it is not done).
func busy(s *PodState) bool { return unavailable(s) || s.ClaimsResizing }

// specifiedDeletes plans the deletion of pods labelled apps.kruise.io/specified-delete
// (step 3 of Compute): those a preDelete hook holds already first, then by highest
// ordinal, taking from *budget for each available one; it returns the ordinals it
// deleted.
func (plan *Plan) specifiedDeletes(slots []slot, budget *int) map[int]bool {
	var pods []*PodState
	for i := len(slots) - 1; i >= 0; i-- {
		if s := slots[i].pod; s.SpecifiedDelete && !s.Terminating && !s.Failed {
			pods = append(pods, s)
		}
	}
	sort.SliceStable(pods, func(i, j int) bool { return pods[i].PreparingDelete && !pods[j].PreparingDelete })
	var out map[int]bool
	for _, s := range pods {
		if !busy(s) {
			if *budget <= 0 {
				continue
			}
			*budget--
		}
		if out == nil {
			out = map[int]bool{}
		}
		out[s.Ordinal] = true
		plan.Delete = append(plan.Delete, Deletion{Ordinal: s.Ordinal, Reason: DeleteSpecified})
	}
	return out
}

// preparingAsUpdated: with PreparingUpdateAsUpdate, s (held in PreparingUpdate) counts
// as updated where unordered updates count pods.
func preparingAsUpdated(s *PodState, p Params) bool {
	return p.PreparingUpdateAsUpdate && s.PreparingUpdate && !s.Updated
}

// updateCandidates are the old pods the update may replace, in update order.
func updateCandidates(slots []slot, p Params) []*PodState {
	isOld := func(s *PodState) bool {
		return (!s.Updated || s.ClaimsStale || s.ClaimsResizing) && !s.Terminating && !s.Failed
	}
	var out []*PodState
	if !p.Unordered {
		for i := len(slots) - 1; i >= 0 && slots[i].pos >= p.Partition; i-- {
			if isOld(slots[i].pod) {
				out = append(out, slots[i].pod)
			}
		}
		return out
	}
	for _, s := range slots {
		if isOld(s.pod) {
			out = append(out, s.pod)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := preparingAsUpdated(out[i], p), preparingAsUpdated(out[j], p); a != b {
			return a
		}
		if out[i].Priority != out[j].Priority {
			return out[i].Priority > out[j].Priority
		}
		return out[i].Ordinal > out[j].Ordinal
	})
	return out[:max(len(out)-p.Partition, 0)]
}
