package daemonset

import (
	"slices"
	"strings"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/nodeplacement"
)

// Pod is what the rollout math needs of one daemon pod.
type Pod struct {
	Name string
	// Updated: the pod is at the update revision.
	Updated bool
	// Available: ready for minReadySeconds and not in the middle of an in-place update.
	Available bool
	// Terminating: being deleted already.
	Terminating bool
	// Failed: the pod has failed (phase Failed); it is deleted and replaced.
	Failed bool
	// InPlaceable: the rollout may update this old pod in place (InPlaceIfPossible, and
	// only images or metadata differ from the update revision); else it is recreated.
	InPlaceable bool
}

// running: the pod counts as the node's daemon (not terminating, not failed).
func (p Pod) running() bool { return !p.Terminating && !p.Failed }

// Node is what the rollout math needs of one node.
type Node struct {
	Name string
	nodeplacement.Eligibility
	// UpdateSelected: rollingUpdate.selector matches the node (true without a selector).
	UpdateSelected bool
	// Pods are the DaemonSet's pods on the node, oldest first.
	Pods []Pod
}

// Limits are a DaemonSet's resolved rollout parameters.
type Limits struct {
	// MaxUnavailable bounds nodes without an available pod because of the rollout;
	// MaxSurge bounds nodes running an old and a new pod at once. One of them is 0.
	MaxUnavailable, MaxSurge int
	// Partition nodes keep their old pods.
	Partition int
	// Paused: no rollout (also OnDelete); nodes still get and lose pods.
	Paused bool
	// Burst bounds the creations, the deletions and the in-place updates of one sync,
	// each; 0 or more than batch.Burst means batch.Burst.
	Burst int
	// PartitionedScaling: the partition holds creations too (scaleStrategy).
	PartitionedScaling bool
}

// Plan is what one sync does. The controller carries it out and plans again from
// what its cache shows next time: Compute never assumes its own writes succeeded.
type Plan struct {
	// Create are the nodes that get a new pod at the update revision.
	Create []string
	// Delete are the pods to delete.
	Delete []string
	// UpdateInPlace are the old pods to bring to the update revision in place.
	UpdateInPlace []string
}

// Compute plans one sync of a DaemonSet over nodes (every node, and a node without
// Eligibility for each node that is gone but still has pods) under limits.
//
// Placement, as kube's DaemonSet controller does it, whatever the rollout:
//  1. Failed pods are deleted; a node whose pods are all gone, terminating or failed
//     and that should run one gets a new pod.
//  2. A node that may not keep its pod (no longer matching, an untolerated NoExecute
//     taint, gone) loses every pod.
//  3. A node that should run the pod keeps one running pod: the oldest available one,
//     else the oldest; with maxSurge, one updated and one old pod so chosen, and the old
//     one goes once the updated one is available (or at once when the old one is not).
//
// Rollout, unless paused:
//  4. Nodes that may be updated are, in this order, those already updated, those being
//     replaced (a terminating pod, none updated), then those matching
//     rollingUpdate.selector, each group by name descending (OpenKruise's order); only
//     the first len(nodes with pods) - partition of them are updated, and of those
//     only the ones the selector matches.
//  5. A node whose only running pod is old and unavailable is replaced at no cost: its
//     unavailability is the old pod's, not the rollout's.
//  6. Without maxSurge, an available old pod is replaced (in place when it can be,
//     else deleted, its replacement created once it terminates) while fewer than
//     maxUnavailable nodes are unavailable because of the rollout: nodes whose pod is
//     updated but not yet available, or that are between pods.
//  7. With maxSurge, a node with an available old pod gets an updated pod beside it
//     while fewer than maxSurge nodes run two pods; step 3 then removes the old pod.
//
// With PartitionedScaling, placement creates pods only while fewer than desired -
// partition nodes run an updated one (partitionedCreates), and the rollout counts
// those creations as updated nodes, so that both together keep to the partition.
//
// Creations, deletions and in-place updates are each capped at Burst, placement
// first; the rollout counts only what is done within it.
func Compute(nodes []Node, l Limits) Plan {
	if l.Burst <= 0 || l.Burst > batch.Burst {
		l.Burst = batch.Burst
	}
	nodes = slices.Clone(nodes)
	slices.SortFunc(nodes, func(a, b Node) int { return strings.Compare(a.Name, b.Name) })
	var p Plan
	place(nodes, l, &p)
	desired, updated := partitionCounts(nodes)
	p.Create = partitionedCreates(p.Create, l.PartitionedScaling, desired, updated, l.Partition)
	p.Create = capAt(p.Create, l.Burst)
	p.Delete = capAt(p.Delete, l.Burst)
	if !l.Paused {
		rollout(nodes, l, &p)
	}
	return p
}

func capAt(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// room reports whether a list capped at burst takes one more entry.
func room(s []string, burst int) bool { return len(s) < burst }

// place is steps 1 to 3.
func place(nodes []Node, l Limits, p *Plan) {
	for _, n := range nodes {
		var running []Pod
		for _, pod := range n.Pods {
			switch {
			case pod.Failed && !pod.Terminating:
				p.Delete = append(p.Delete, pod.Name)
			case pod.running():
				running = append(running, pod)
			}
		}
		switch {
		case !n.ShouldRun && !n.ShouldContinueRunning:
			for _, pod := range running {
				p.Delete = append(p.Delete, pod.Name)
			}
		case !n.ShouldRun:
			// A pod that may stay stays, misscheduled, as in kube.
		case len(running) == 0:
			p.Create = append(p.Create, n.Name)
		case l.MaxSurge == 0:
			for _, pod := range availableFirst(running)[1:] {
				p.Delete = append(p.Delete, pod.Name)
			}
		default:
			p.Delete = append(p.Delete, surplusOfSurge(running)...)
		}
	}
}

// availableFirst orders a node's running pods for keeping: available ones first, then
// oldest first (kube keeps the oldest; keeping an available one instead never takes a
// serving node down to remove a duplicate).
func availableFirst(running []Pod) []Pod {
	out := slices.Clone(running)
	slices.SortStableFunc(out, func(a, b Pod) int {
		switch {
		case a.Available == b.Available:
			return 0
		case a.Available:
			return -1
		default:
			return 1
		}
	})
	return out
}

// surplusOfSurge keeps a node's oldest updated and oldest old pod, the old one only
// until the updated one is available.
func surplusOfSurge(running []Pod) []string {
	var out []string
	var newest, oldest *Pod
	running = availableFirst(running)
	for i := range running {
		pod := &running[i]
		switch {
		case pod.Updated && newest == nil:
			newest = pod
		case !pod.Updated && oldest == nil:
			oldest = pod
		default:
			out = append(out, pod.Name)
		}
	}
	if newest != nil && oldest != nil && (newest.Available || !oldest.Available) {
		out = append(out, oldest.Name)
	}
	return out
}

// rollout is steps 4 to 7: it adds to p what the rollout does, counting what p
// already does (placement's deletions within the burst) and within the burst left.
func rollout(nodes []Node, l Limits, p *Plan) {
	deleted := map[string]bool{}
	for _, name := range p.Delete {
		deleted[name] = true
	}
	unavailable, surging := 0, 0
	for _, n := range nodes {
		if n.ShouldRun && rolloutUnavailable(n) {
			unavailable++
		}
		if n.ShouldRun && runningBeyond(n, deleted) > 1 {
			surging++
		}
	}
	// With partitionedScaling, placement's creations are updated pods under the same
	// partition: the rollout counts them, so the two together stay within it.
	var creating map[string]bool
	if l.PartitionedScaling {
		creating = map[string]bool{}
		for _, name := range p.Create {
			creating[name] = true
		}
	}
	for _, n := range updatableNodes(nodes, l.Partition, creating) {
		running := runningPods(n)
		if !n.UpdateSelected || len(running) != 1 || running[0].Updated || deleted[running[0].Name] {
			continue
		}
		old := running[0]
		switch {
		case !old.Available:
			// Step 5: replacing a pod that does not serve costs nothing.
		case l.MaxSurge > 0:
			if surging >= l.MaxSurge || !room(p.Create, l.Burst) {
				continue
			}
			surging++
			p.Create = append(p.Create, n.Name)
			continue
		default:
			if unavailable >= l.MaxUnavailable {
				continue
			}
		}
		switch {
		case old.InPlaceable && room(p.UpdateInPlace, l.Burst):
			p.UpdateInPlace = append(p.UpdateInPlace, old.Name)
		case old.InPlaceable:
			continue
		case room(p.Delete, l.Burst):
			p.Delete = append(p.Delete, old.Name)
		default:
			continue
		}
		if old.Available {
			unavailable++
		}
	}
}

// runningBeyond counts the node's running pods that p does not delete.
func runningBeyond(n Node, deleted map[string]bool) int {
	c := 0
	for _, pod := range runningPods(n) {
		if !deleted[pod.Name] {
			c++
		}
	}
	return c
}

func runningPods(n Node) []Pod {
	var out []Pod
	for _, pod := range n.Pods {
		if pod.running() {
			out = append(out, pod)
		}
	}
	return out
}

// rolloutUnavailable: the node has pods but none available, and not because its only
// pod is an old one that fails on its own (the rollout did not cause that).
func rolloutUnavailable(n Node) bool {
	if len(n.Pods) == 0 {
		return false
	}
	running := runningPods(n)
	for _, pod := range running {
		if pod.Available {
			return false
		}
	}
	return !(len(running) == 1 && !running[0].Updated)
}

// updatableNodes is step 4: the nodes the rollout may touch, in the order it does.
// Nodes in creating get an updated pod from placement and count as updated.
func updatableNodes(nodes []Node, partition int, creating map[string]bool) []Node {
	var updated, replacing, candidates []Node
	withPods := 0
	for i := len(nodes) - 1; i >= 0; i-- {
		n := nodes[i]
		if !n.ShouldRun || (len(n.Pods) == 0 && !creating[n.Name]) {
			continue
		}
		withPods++
		hasUpdated, hasTerminating := creating[n.Name], false
		for _, pod := range n.Pods {
			hasUpdated = hasUpdated || (pod.Updated && pod.running())
			hasTerminating = hasTerminating || pod.Terminating
		}
		switch {
		case hasUpdated:
			updated = append(updated, n)
		case hasTerminating:
			replacing = append(replacing, n)
		case n.UpdateSelected:
			candidates = append(candidates, n)
		}
	}
	order := append(append(updated, replacing...), candidates...)
	limit := max(withPods-partition, 0)
	if len(order) > limit {
		order = order[:limit]
	}
	return order
}
