package sidecarset

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podorder"
)

// plan is what one sync does to a SidecarSet's pods.
type plan struct {
	// upgrade are the pods to move to the target now, one patch each.
	upgrade []podStatus
	// blocked says why pods that are not updated wait (empty: none waits, or the
	// rollout is done); reported as an event when it changes.
	blocked []string
}

// planRollout decides which pods to upgrade: RollingUpdate, not paused; pods the canary
// selector selects; only pods whose difference is images (others need recreating);
// leaving partition pods on the old sidecars; and never more than maxUnavailable pods
// unavailable (not ready or mid-upgrade) at once. Unready candidates go first, they
// cost no availability; then updatePriority and scatter order, as for CloneSets. At
// most batch.Burst pods are upgraded a sync.
func planRollout(ss *apps.SidecarSet, pods []podStatus) plan {
	s := &ss.Spec.UpdateStrategy
	var p plan
	var notInPlace []string
	var candidates []podStatus
	updated, unavailable := 0, 0
	for _, ps := range pods {
		if ps.updated {
			updated++
		}
		if !ps.ready || !ps.consistent {
			unavailable++
		}
		switch {
		case ps.updated || !ps.canary:
		case !ps.inPlace:
			notInPlace = append(notInPlace, ps.pod.Namespace+"/"+ps.pod.Name)
		case !ps.consistent:
			// a previous upgrade is still under way; it counts as unavailable above
		default:
			candidates = append(candidates, ps)
		}
	}
	if len(notInPlace) > 0 {
		sort.Strings(notInPlace)
		p.blocked = append(p.blocked, fmt.Sprintf("%d pod(s) need more than an image change to run the new sidecars "+
			"(containers, env, volumes, ... changed): recreate them to inject the new version: %s", len(notInPlace), list(notInPlace)))
	}
	if len(candidates) == 0 {
		return p
	}
	switch {
	case s.Type == apps.NotUpdateSidecarSetStrategyType:
		p.blocked = append(p.blocked, "updateStrategy.type is NotUpdate: injected pods keep their sidecars")
		return p
	case s.Paused:
		p.blocked = append(p.blocked, fmt.Sprintf("updateStrategy.paused: %d pod(s) wait", len(candidates)))
		return p
	}

	total := len(pods)
	keep, _ := intstr.GetScaledValueFromIntOrPercent(orZero(s.Partition), total, true)
	budget := total - keep - updated
	if budget <= 0 {
		p.blocked = append(p.blocked, fmt.Sprintf("partition %s keeps the remaining %d pod(s) on the old sidecars",
			orZero(s.Partition).String(), len(candidates)))
		return p
	}
	maxUnavailable, _ := intstr.GetScaledValueFromIntOrPercent(orOne(s.MaxUnavailable), total, true)
	maxUnavailable = max(maxUnavailable, 1)
	slots := maxUnavailable - unavailable

	byName := map[string]podStatus{}
	var cands []podorder.Candidate
	priority := podorder.PriorityFor(s.PriorityStrategy)
	for _, ps := range candidates {
		byName[ps.pod.Name+"/"+ps.pod.Namespace] = ps
		c := podorder.CandidateFromPod(ps.pod, ps.ready, priority)
		c.Name = ps.pod.Name + "/" + ps.pod.Namespace
		cands = append(cands, c)
	}
	heldByPartition, heldByUnavailable := 0, 0
	for _, c := range podorder.SortForUpdate(cands, s.ScatterStrategy) {
		ps := byName[c.Name]
		switch {
		case len(p.upgrade) >= budget:
			heldByPartition++
		case len(p.upgrade) >= batch.Burst:
			// the rest in later syncs: the patched pods' events bring the SidecarSet back
		case !ps.ready:
			p.upgrade = append(p.upgrade, ps) // already unavailable: upgrading it costs nothing
		case slots > 0:
			slots--
			p.upgrade = append(p.upgrade, ps)
		default:
			heldByUnavailable++
		}
	}
	if heldByPartition > 0 {
		p.blocked = append(p.blocked, fmt.Sprintf("partition %s keeps the remaining %d pod(s) on the old sidecars",
			orZero(s.Partition).String(), heldByPartition))
	}
	if heldByUnavailable > 0 {
		p.blocked = append(p.blocked, fmt.Sprintf("maxUnavailable %s: %d of %d pod(s) unavailable or upgrading, %d pod(s) wait",
			orOne(s.MaxUnavailable).String(), unavailable+len(p.upgrade), total, heldByUnavailable))
	}
	return p
}

func orZero(v *intstr.IntOrString) *intstr.IntOrString {
	if v == nil {
		z := intstr.FromInt32(0)
		return &z
	}
	return v
}

func orOne(v *intstr.IntOrString) *intstr.IntOrString {
	if v == nil {
		o := intstr.FromInt32(1)
		return &o
	}
	return v
}

// list names at most five items, then how many more.
func list(items []string) string {
	if len(items) <= 5 {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:5], ", "), len(items)-5)
}
