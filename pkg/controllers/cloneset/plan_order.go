package cloneset

import (
	"sort"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podorder"
)

// oldPodsByUpdateOrder returns the pods not at the update revision in the order to
// update them, podorder's update order: those an inPlaceUpdate hook holds in
// PreparingUpdate first (the update already chose them, as OpenKruise keeps them
// first, so a pod created meanwhile is not taken instead), then unavailable ones
// (updating them costs nothing), then by priority (higher first), then by name; pods
// of equal standing are then spread by the scatter strategy.
func oldPodsByUpdateOrder(pods []PodInfo, scatter []pub.UpdateScatterTerm) []PodInfo {
	var old []PodInfo
	for _, p := range pods {
		if !p.Updated {
			old = append(old, p)
		}
	}
	return podorder.SortForUpdate(old, scatter)
}

// pickDeletions picks n pods to delete: up to excessOld pods at old revisions first,
// then the rest, in podorder's deletion order: pods a preDelete hook already holds
// first, then the ReplicaSet controller's order (unscheduled, pending, unavailable and
// not ready first, then lower pod-deletion-cost, which a WorkloadSpread sets so its
// last subsets empty first, then lower priority, then the pods on the most crowded
// nodes, ready for the shortest time, restarted most and created last), as
// OpenKruise's CloneSet chooses pods to scale in.
func pickDeletions(pods []PodInfo, n, excessOld int) []PodInfo {
	sorted := podorder.SortForDelete(pods)
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
