package podorder

import (
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// Orderable is what the sorts order: a Candidate itself, or a workload's own record of a
// pod that embeds one, so that a sort hands the workload back its records.
type Orderable interface {
	OrderCandidate() Candidate
}

// OrderCandidate makes a Candidate (and every record embedding one) Orderable.
func (c Candidate) OrderCandidate() Candidate { return c }

type indexed struct {
	Candidate
	at int // index in the caller's slice
}

func index[P Orderable](pods []P) []indexed {
	out := make([]indexed, len(pods))
	for i := range pods {
		out[i] = indexed{Candidate: pods[i].OrderCandidate(), at: i}
	}
	return out
}

// SortForUpdate returns pods in the order to update them (the input is not modified):
//  1. pods in PreparingUpdate first: their hook already runs;
//  2. unavailable before available (not ready first among them): updating a pod that
//     is already unavailable costs no availability;
//  3. higher Priority first;
//  4. pods of equal standing by name, then scattered by the scatter terms (see
//     scatterOrder), so scattering never overrides availability or priority.
func SortForUpdate[P Orderable](pods []P, scatter []pub.UpdateScatterTerm) []P {
	items := index(pods)
	sort.SliceStable(items, func(i, j int) bool {
		a, b := &items[i], &items[j]
		if !sameStanding(a, b) {
			return standsBefore(a, b)
		}
		return a.Name < b.Name
	})
	out := make([]P, 0, len(items))
	for start := 0; start < len(items); {
		end := start + 1
		for end < len(items) && sameStanding(&items[start], &items[end]) {
			end++
		}
		run := items[start:end]
		for _, idx := range scatterOrder(scatter, len(run), func(i int) map[string]string { return run[i].Labels }) {
			out = append(out, pods[run[idx].at])
		}
		start = end
	}
	return out
}

func sameStanding(a, b *indexed) bool {
	return a.PreparingUpdate == b.PreparingUpdate && a.Available == b.Available && a.Ready == b.Ready && a.Priority == b.Priority
}

func standsBefore(a, b *indexed) bool {
	switch {
	case a.PreparingUpdate != b.PreparingUpdate:
		return a.PreparingUpdate
	case a.Available != b.Available:
		return !a.Available
	case a.Ready != b.Ready:
		return !a.Ready
	default:
		return a.Priority > b.Priority
	}
}

var phaseOrdinal = map[corev1.PodPhase]int{corev1.PodPending: 0, corev1.PodUnknown: 1, corev1.PodRunning: 2}

// SortForDelete returns pods in the order to delete them, the one to delete first
// first (the input is not modified). It is the ReplicaSet controller's order with
// availability and Kruise priority added, after the pods a preDelete hook holds:
//  0. PreparingDelete first;
//  1. unscheduled before scheduled;
//  2. Pending (and any phase other than Unknown and Running) before Unknown before Running;
//  3. unavailable before available, then not ready before ready;
//  4. lower pod-deletion-cost first;
//  5. lower Priority first (the pods updated last are deleted first);
//  6. pods sharing a node with more of the given pods first;
//  7. among ready pods, the one ready for the shortest time first (unknown time first);
//  8. more container restarts first (regular containers, then sidecars);
//  9. newer first (unknown creation time first), then by name.
func SortForDelete[P Orderable](pods []P) []P {
	items := index(pods)
	onNode := map[string]int{}
	for i := range items {
		if items[i].Node != "" {
			onNode[items[i].Node]++
		}
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := &items[i], &items[j]
		if a.PreparingDelete != b.PreparingDelete {
			return a.PreparingDelete
		}
		if (a.Node == "") != (b.Node == "") {
			return a.Node == ""
		}
		if pa, pb := phaseOrdinal[a.Phase], phaseOrdinal[b.Phase]; pa != pb {
			return pa < pb
		}
		if a.Available != b.Available {
			return !a.Available
		}
		if a.Ready != b.Ready {
			return !a.Ready
		}
		if a.DeletionCost != b.DeletionCost {
			return a.DeletionCost < b.DeletionCost
		}
		if a.Priority != b.Priority {
			return a.Priority < b.Priority
		}
		if ca, cb := onNode[a.Node], onNode[b.Node]; ca != cb {
			return ca > cb
		}
		if a.Ready && b.Ready && !a.ReadyTime.Equal(b.ReadyTime) {
			return afterOrZero(a.ReadyTime, b.ReadyTime)
		}
		if a.Restarts != b.Restarts {
			return a.Restarts > b.Restarts
		}
		if a.SidecarRestarts != b.SidecarRestarts {
			return a.SidecarRestarts > b.SidecarRestarts
		}
		if !a.CreationTime.Equal(b.CreationTime) {
			return afterOrZero(a.CreationTime, b.CreationTime)
		}
		return a.Name < b.Name
	})
	out := make([]P, len(items))
	for i := range items {
		out[i] = pods[items[i].at]
	}
	return out
}

// afterOrZero reports whether t1 is after t2, a zero time counting as after any other.
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}
