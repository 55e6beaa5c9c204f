package cloneset

import (
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// claimPlan is what one sync does with the PVCs of a CloneSet's instance ids, as
// OpenKruise does: the controller deletes a pod's claims with the pods it deletes
// itself (scale-down, recreate update); a pod deleted by someone else (by hand,
// evicted) or finished leaves its claims behind. With PVC reuse, its replacement takes
// the freed instance id and so those claims and their data; without, they are deleted.
type claimPlan struct {
	// Free are instance ids whose claims exist while no pod of the CloneSet carries
	// the id: the next pods created take them (reuse on), sorted.
	Free []string
	// Pending counts the ids whose claims a terminating or finished pod still holds:
	// a pod created now could not take them (the name <cloneset>-<id> is still taken),
	// so as many creations wait until those pods are gone (reuse on).
	Pending int
	// Finished are finished pods (Succeeded or Failed) holding claims: deleting them
	// (not their claims) frees their ids for their replacements (reuse on).
	Finished []string
	// Orphans are claims whose id no active pod carries: deleted (reuse off), sorted.
	Orphans []string
	// IDs are the instance ids any claim carries, deleted or not: a fresh id must be
	// none of them, or the new pod would take a claim that is not meant for it.
	IDs sets.Set[string]
	// ByID names the claims (not being deleted) of each instance id, in list order:
	// those deleted with the pod of the id.
	ByID map[string][]string
}

// planClaims decides from the CloneSet's pods (active, terminating and finished) and
// its claims (not being deleted) what reuse, or its absence, asks for.
func planClaims(reuse bool, pods []*corev1.Pod, claims []*corev1.PersistentVolumeClaim) claimPlan {
	p := claimPlan{IDs: sets.New[string](), ByID: map[string][]string{}}
	claimsOf := p.ByID
	for _, claim := range claims {
		id := claim.Labels[pub.CloneSetInstanceIDKey]
		if id == "" {
			continue
		}
		// A claim being deleted still reserves its id: a new pod under it would be
		// bound to a claim about to go.
		p.IDs.Insert(id)
		if claim.DeletionTimestamp == nil {
			claimsOf[id] = append(claimsOf[id], claim.Name)
		}
	}
	active, held := sets.New[string](), sets.New[string]()
	for _, pod := range pods {
		id := pod.Labels[pub.CloneSetInstanceIDKey]
		if id == "" {
			continue
		}
		held.Insert(id)
		switch {
		case isActive(pod):
			active.Insert(id)
		case reuse && claimsOf[id] != nil:
			p.Pending++
			if pod.DeletionTimestamp == nil {
				p.Finished = append(p.Finished, pod.Name)
			}
		}
	}
	for id, names := range claimsOf {
		switch {
		case !reuse && !active.Has(id):
			p.Orphans = append(p.Orphans, names...)
		case reuse && !held.Has(id):
			p.Free = append(p.Free, id)
		}
	}
	sort.Strings(p.Free)
	sort.Strings(p.Orphans)
	sort.Strings(p.Finished)
	return p
}

// creationsNow splits n planned creations between ids to reuse and fresh ids: free
// ids first; creations beyond them wait while pending ids will be free soon (their
// pods' replacements should get them, not new claims). It returns the ids to reuse
// and how many fresh ids to draw.
func (p claimPlan) creationsNow(n int) (reuse []string, fresh int) {
	reuse = p.Free[:min(n, len(p.Free))]
	rest := n - len(reuse)
	return reuse, max(rest-p.Pending, 0)
}
