package cloneset

import (
	"sort"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podorder"
)

// oldPodsByUpdateOrder returns pods not at the update revision: those an
// inPlaceUpdate hook holds in PreparingUpdate first (the update already chose them, as
// OpenKruise keeps them first, so a pod created meanwhile is not taken instead), then
// unavailable ones (updating them costs nothing), then by priority (higher first),
// then by name; pods of equal standing are then spread by the scatter strategy.
func oldPodsByUpdateOrder(pods []PodInfo, scatter []pub.UpdateScatterTerm) []PodInfo {
	var old []PodInfo
	for _, p := range pods {
		if !p.Updated {
			old = append(old, p)
		}
	}
	sort.SliceStable(old, func(i, j int) bool {
		a, b := old[i], old[j]
		if a.PreparingUpdate != b.PreparingUpdate {
			return a.PreparingUpdate
		}
		if a.Available != b.Available {
			return !a.Available
		}
		if a.Priority != b.Priority {
			return a.Priority > b.Priority
		}
		return a.Name < b.Name
	})
	if len(scatter) == 0 {
		return old
	}
	for start := 0; start < len(old); {
		end := start + 1
		for end < len(old) && old[end].PreparingUpdate == old[start].PreparingUpdate &&
			old[end].Available == old[start].Available && old[end].Priority == old[start].Priority {
			end++
		}
		scatterRun(old[start:end], scatter)
		start = end
	}
	return old
}

// scatterRun reorders a run of equally ranked pods in place by the scatter terms.
func scatterRun(run []PodInfo, scatter []pub.UpdateScatterTerm) {
	refs := make([]podorder.PodRef, len(run))
	byName := make(map[string]PodInfo, len(run))
	for i, p := range run {
		refs[i] = podorder.PodRef{Name: p.Name, Labels: p.Labels}
		byName[p.Name] = p
	}
	for i, r := range podorder.Scatter(scatter, refs) {
		run[i] = byName[r.Name]
	}
}

// pickDeletions picks n pods to delete: up to excessOld pods at old revisions first,
// then the rest; within each group unavailable, then lower pod-deletion-cost (the
// annotation a WorkloadSpread sets so its last subsets empty first, as kube's
// ReplicaSet controller honours it), then low-priority pods first.
func pickDeletions(pods []PodInfo, n, excessOld int) []PodInfo {
	sorted := append([]PodInfo(nil), pods...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.PreparingDelete != b.PreparingDelete {
			return a.PreparingDelete
		}
		if a.Available != b.Available {
			return !a.Available
		}
		if a.DeletionCost != b.DeletionCost {
			return a.DeletionCost < b.DeletionCost
		}
		if a.Priority != b.Priority {
			return a.Priority < b.Priority
		}
		return a.Name > b.Name
	})
	var out []PodInfo
	taken := map[string]bool{}
	for _, p := range sorted {
		if len(out) == n || excessOld == 0 {
			break
		}
		if !p.Updated {
			out = append(out, p)
			taken[p.Name] = true
			excessOld--
		}
	}
	for _, p := range sorted {
		if len(out) == n {
			break
		}
		if !taken[p.Name] && p.Updated {
			out = append(out, p)
			taken[p.Name] = true
		}
	}
	for _, p := range sorted {
		if len(out) == n {
			break
		}
		if !taken[p.Name] {
			out = append(out, p)
		}
	}
	return out
}

// pickRollbacks picks up to n updated pods to take back to the current revision, the
// reverse of the update order: unavailable first (costing no availability), then lower
// priority, then by name from the end; an available pod only while budget lasts.
func pickRollbacks(pods []PodInfo, n, budget int) []string {
	var updated []PodInfo
	for _, p := range pods {
		if p.Updated {
			updated = append(updated, p)
		}
	}
	sort.SliceStable(updated, func(i, j int) bool {
		a, b := updated[i], updated[j]
		if a.Available != b.Available {
			return !a.Available
		}
		if a.Priority != b.Priority {
			return a.Priority < b.Priority
		}
		return a.Name > b.Name
	})
	var out []string
	for _, p := range updated {
		if len(out) >= n {
			break
		}
		if p.Available {
			if budget <= 0 {
				continue
			}
			budget--
		}
		out = append(out, p.Name)
	}
	return out
}
