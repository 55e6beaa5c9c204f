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
// How many: every desired pod that is missing or unavailable counts against
// MaxUnavailable, as in kube's maxUnavailable for StatefulSets, so the update never
// makes more than MaxUnavailable pods unavailable. An old pod that is unavailable
// already is updated whenever the walk reaches it: it costs no availability, and a
// broken pod is exactly the one a new revision may fix.
func planUpdates(d Desired, slots []slot, p Params) []int {
	budget := p.MaxUnavailable - (d.Len() - len(slots)) // missing pods are unavailable
	for _, s := range slots {
		if unavailable(s.pod) {
			budget--
		}
	}
	var out []int
	for _, s := range updateCandidates(slots, p) {
		if unavailable(s) {
			out = append(out, s.Ordinal)
			continue
		}
		if budget > 0 {
			budget--
			out = append(out, s.Ordinal)
		}
	}
	return out
}

// updateCandidates are the old pods the update may replace, in update order.
func updateCandidates(slots []slot, p Params) []*PodState {
	isOld := func(s *PodState) bool { return !s.Updated && !s.Terminating && !s.Failed }
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
		if out[i].Priority != out[j].Priority {
			return out[i].Priority > out[j].Priority
		}
		return out[i].Ordinal > out[j].Ordinal
	})
	return out[:max(len(out)-p.Partition, 0)]
}
