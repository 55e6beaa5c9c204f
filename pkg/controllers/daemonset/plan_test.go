package daemonset

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/nodeplacement"
)

// cluster builds nodes from a small DSL: nodes separated by spaces, each an optional
// flag then one letter per pod, oldest first. Flags: '-' the node may not run the pod
// nor keep it (or is gone), '~' it may not run a new one but keeps its pod, '!'
// rollingUpdate.selector does not match it. Pods: U updated+available, u
// updated+unavailable, O old+available, o old+unavailable, I/i the same old pods
// updatable in place, T terminating, F failed; '.' is a node without pods. Node k is
// named n<k> and its pods n<k>-<j>.
func cluster(spec string) []Node {
	var nodes []Node
	for k, f := range strings.Fields(spec) {
		n := Node{Name: fmt.Sprintf("n%d", k), Eligibility: nodeplacement.Eligibility{ShouldRun: true, ShouldContinueRunning: true}, UpdateSelected: true}
		for _, c := range f {
			pod := Pod{Name: fmt.Sprintf("n%d-%d", k, len(n.Pods))}
			switch c {
			case '-':
				n.Eligibility = nodeplacement.Eligibility{}
				continue
			case '~':
				n.ShouldRun = false
				continue
			case '!':
				n.UpdateSelected = false
				continue
			case '.':
				continue
			case 'U':
				pod.Updated, pod.Available = true, true
			case 'u':
				pod.Updated = true
			case 'O':
				pod.Available = true
			case 'I':
				pod.Available, pod.InPlaceable = true, true
			case 'i':
				pod.InPlaceable = true
			case 'T':
				pod.Terminating = true
			case 'F':
				pod.Failed = true
			}
			n.Pods = append(n.Pods, pod)
		}
		nodes = append(nodes, n)
	}
	return nodes
}

func TestCompute(t *testing.T) {
	unavail1 := Limits{MaxUnavailable: 1}
	cases := []struct {
		name  string
		nodes string
		l     Limits
		want  Plan
	}{
		{"every eligible node gets a pod", ". . -. ~.", unavail1, Plan{Create: []string{"n0", "n1"}}},
		{"steady state does nothing", "U U U", unavail1, Plan{}},
		{"a node that may not keep its pod loses it; one that may keeps it", "U -U ~U", unavail1, Plan{Delete: []string{"n1-0"}}},
		{"duplicates: the oldest stays", "UU OU", unavail1, Plan{Delete: []string{"n0-1", "n1-1"}}},
		{"a failed pod is deleted and replaced", "F U", unavail1, Plan{Create: []string{"n0"}, Delete: []string{"n0-0"}}},
		{"a node with a terminating pod beside an old one is updated like any other", "TO", unavail1, Plan{Delete: []string{"n0-1"}}},
		{"a node with only a terminating pod gets its replacement", "T O O", unavail1, Plan{Create: []string{"n0"}}},
		{"standard: one node at a time, highest name first", "O O O", unavail1, Plan{Delete: []string{"n2-0"}}},
		{"standard: waits while a node is between pods", "T O O", unavail1, Plan{Create: []string{"n0"}}},
		{"standard: waits while an updated pod is not available", "u O O", unavail1, Plan{}},
		{"standard: old pods that are not available go for free", "o o O O", unavail1, Plan{Delete: []string{"n3-0", "n1-0", "n0-0"}}},
		{"maxUnavailable 2", "O O O", Limits{MaxUnavailable: 2}, Plan{Delete: []string{"n2-0", "n1-0"}}},
		{"in place when possible, else recreate", "I O", Limits{MaxUnavailable: 2}, Plan{Delete: []string{"n1-0"}, UpdateInPlace: []string{"n0-0"}}},
		{"paused: nodes still get and lose pods, no pod is updated", "O . -O", Limits{MaxUnavailable: 2, Paused: true}, Plan{Create: []string{"n1"}, Delete: []string{"n2-0"}}},
		{"partition keeps that many nodes old", "O O O O", Limits{MaxUnavailable: 4, Partition: 3}, Plan{Delete: []string{"n3-0"}}},
		{"partition counts updated nodes", "U O O O", Limits{MaxUnavailable: 4, Partition: 2}, Plan{Delete: []string{"n3-0"}}},
		{"partition above the nodes updates nothing", "O O", Limits{MaxUnavailable: 4, Partition: 5}, Plan{}},
		{"selector: only matching nodes", "O !O O !O", Limits{MaxUnavailable: 4}, Plan{Delete: []string{"n2-0", "n0-0"}}},
		{"selector and partition", "O !O O !O", Limits{MaxUnavailable: 4, Partition: 3}, Plan{Delete: []string{"n2-0"}}},
		{"surge: a new pod beside the old one", "O O O", Limits{MaxSurge: 1}, Plan{Create: []string{"n2"}}},
		{"surge: waits while the new pod is not available", "O O Ou", Limits{MaxSurge: 1}, Plan{}},
		{"surge: the old pod goes once the new one is available", "O O OU", Limits{MaxSurge: 1}, Plan{Create: []string{"n1"}, Delete: []string{"n2-0"}}},
		{"surge: an unavailable old pod goes without a surge", "o O", Limits{MaxSurge: 1}, Plan{Create: []string{"n1"}, Delete: []string{"n0-0"}}},
		{"surge: an unavailable old pod beside a new one goes", "ou", Limits{MaxSurge: 1}, Plan{Delete: []string{"n0-0"}}},
		{"burst caps creations and deletions separately", ". . . -O -O", Limits{MaxUnavailable: 1, Burst: 2}, Plan{Create: []string{"n0", "n1"}, Delete: []string{"n3-0", "n4-0"}}},
		{"burst caps in-place updates too", "I I I", Limits{MaxUnavailable: 3, Burst: 2}, Plan{UpdateInPlace: []string{"n2-0", "n1-0"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Compute(cluster(tc.nodes), tc.l)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("plan differs (-want +got):\n%s", diff)
			}
		})
	}
}

// after is the cluster as it is once a plan's writes are done: deleted pods are
// terminating, pods updated in place are updated but not yet available, created pods
// are updated and not yet available.
func after(nodes []Node, p Plan) []Node {
	out := make([]Node, len(nodes))
	for i, n := range nodes {
		n.Pods = slices.Clone(n.Pods)
		for j := range n.Pods {
			pod := &n.Pods[j]
			if slices.Contains(p.Delete, pod.Name) {
				pod.Terminating = true
			}
			if slices.Contains(p.UpdateInPlace, pod.Name) {
				pod.Updated, pod.Available = true, false
			}
		}
		if slices.Contains(p.Create, n.Name) {
			n.Pods = append(n.Pods, Pod{Name: n.Name + "-new", Updated: true})
		}
		out[i] = n
	}
	return out
}

// randomCluster generates a cluster a DaemonSet can be in: per node at most one
// running old and one running updated pod (two only under surge), plus terminating
// or failed ones.
func randomCluster(r *rand.Rand, surge bool) []Node {
	letters := "UuOoIiTF."
	var b strings.Builder
	for range 1 + r.Intn(8) {
		switch r.Intn(6) {
		case 0:
			b.WriteByte("-~!"[r.Intn(3)])
		}
		pods := 1 + r.Intn(2)
		if !surge {
			pods = 1
		}
		for range pods {
			b.WriteByte(letters[r.Intn(len(letters))])
		}
		if r.Intn(5) == 0 {
			b.WriteByte('T')
		}
		b.WriteByte(' ')
	}
	return cluster(b.String())
}

func rolloutUnavailableCount(nodes []Node) int {
	n := 0
	for _, node := range nodes {
		if node.ShouldRun && rolloutUnavailable(node) {
			n++
		}
	}
	return n
}

// takenDown counts the eligible nodes with an available pod before and none after.
func takenDown(before, after []Node) int {
	n := 0
	for i := range before {
		if before[i].ShouldRun && hasAvailable(before[i]) && !hasAvailable(after[i]) {
			n++
		}
	}
	return n
}

func hasAvailable(n Node) bool {
	for _, pod := range runningPods(n) {
		if pod.Available {
			return true
		}
	}
	return false
}

func twoPodNodes(nodes []Node) int {
	n := 0
	for _, node := range nodes {
		if node.ShouldRun && len(runningPods(node)) > 1 {
			n++
		}
	}
	return n
}

// touched are the nodes whose single running old pod the plan replaces (the rollout's
// own actions, not placement's).
func touched(nodes []Node, p Plan) []string {
	var out []string
	for _, n := range nodes {
		running := runningPods(n)
		if !n.ShouldRun || len(running) != 1 || running[0].Updated {
			continue
		}
		name := running[0].Name
		if slices.Contains(p.Delete, name) || slices.Contains(p.UpdateInPlace, name) || slices.Contains(p.Create, n.Name) {
			out = append(out, n.Name)
		}
	}
	return out
}

// Invariants over generated inputs: whatever the nodes and limits, one plan never
// takes an available node down beyond maxUnavailable nodes down because of the rollout
// (nodes between pods, or with an updated pod not yet available), nor leaves more
// than maxSurge nodes with two pods (unless they were so before, and then it adds
// none), never updates beyond the partition or outside the selector, and touches no
// old pod while paused; with partitionedScaling, never brings more than desired -
// partition nodes to an updated pod.
func TestComputeInvariants(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := range 20000 {
		surge := r.Intn(2) == 0
		l := Limits{Partition: r.Intn(5), Paused: r.Intn(5) == 0, Burst: r.Intn(4), PartitionedScaling: r.Intn(2) == 0}
		if surge {
			l.MaxSurge = 1 + r.Intn(3)
		} else {
			l.MaxUnavailable = 1 + r.Intn(3)
		}
		nodes := randomCluster(r, surge)
		sortByName(nodes)
		p := Compute(nodes, l)
		next := after(nodes, p)
		desc := fmt.Sprintf("case %d: %+v\nnodes %+v\nplan %+v", i, l, nodes, p)

		if down, before := takenDown(nodes, next), rolloutUnavailableCount(nodes); down > max(l.MaxUnavailable-before, 0) {
			t.Fatalf("%s\n%d available nodes taken down while %d were down because of the rollout (maxUnavailable %d)", desc, down, before, l.MaxUnavailable)
		}
		if before, now := twoPodNodes(nodes), twoPodNodes(next); now > max(l.MaxSurge, before) {
			t.Fatalf("%s\n%d nodes run two pods (was %d, maxSurge %d)", desc, now, before, l.MaxSurge)
		}
		rolled := touched(nodes, p)
		if l.Paused && len(rolled) > 0 {
			t.Fatalf("%s\npaused, yet the rollout touched %v", desc, rolled)
		}
		withPods := 0
		moving := map[string]bool{} // nodes updated, or being updated by this plan
		for _, name := range rolled {
			moving[name] = true
		}
		for _, n := range nodes {
			if !n.ShouldRun || len(n.Pods) == 0 {
				continue
			}
			withPods++
			if !n.UpdateSelected && slices.Contains(rolled, n.Name) {
				t.Fatalf("%s\nnode %s is outside the selector, yet updated", desc, n.Name)
			}
			for _, pod := range n.Pods {
				if pod.Updated && pod.running() {
					moving[n.Name] = true
				}
			}
		}
		if len(rolled) > 0 && len(moving) > withPods-l.Partition {
			t.Fatalf("%s\n%d nodes updated or being updated, partition %d of %d", desc, len(moving), l.Partition, withPods)
		}
		if l.PartitionedScaling {
			// The partition holds creations too: the plan never brings more than
			// desired - partition nodes to an updated pod (or keeps as many as had one).
			desired, before := partitionCounts(nodes)
			_, now := partitionCounts(next)
			if now > max(desired-l.Partition, before) {
				t.Fatalf("%s\npartitionedScaling: %d nodes run an updated pod (was %d), partition %d of %d", desc, now, before, l.Partition, desired)
			}
		}
		if l.Burst > 0 && (len(p.Create) > l.Burst || len(p.Delete) > l.Burst) {
			t.Fatalf("%s\nburst %d exceeded", desc, l.Burst)
		}
	}
}

func sortByName(nodes []Node) {
	slices.SortFunc(nodes, func(a, b Node) int { return strings.Compare(a.Name, b.Name) })
}

// Without a burst, or with one above it, a sync writes at most batch.Burst pods of each
// kind, whatever maxUnavailable and maxSurge allow (issue 32).
func TestComputeIsBoundedByTheSharedBurst(t *testing.T) {
	many := func(node string, n int) string { return strings.TrimSpace(strings.Repeat(node+" ", n)) }
	const huge = math.MaxInt32
	for _, tc := range []struct {
		name                      string
		nodes                     string
		l                         Limits
		creates, deletes, inPlace int
	}{
		{"creations", many(".", batch.Burst+50), Limits{MaxUnavailable: 1}, batch.Burst, 0, 0},
		{"deletions", many("-O", batch.Burst+50), Limits{MaxUnavailable: 1, Burst: huge}, 0, batch.Burst, 0},
		{"in-place updates", many("I", batch.Burst+50), Limits{MaxUnavailable: huge}, 0, 0, batch.Burst},
		{"surge creations", many("O", batch.Burst+50), Limits{MaxSurge: huge, Burst: huge}, batch.Burst, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Compute(cluster(tc.nodes), tc.l)
			if len(got.Create) != tc.creates || len(got.Delete) != tc.deletes || len(got.UpdateInPlace) != tc.inPlace {
				t.Fatalf("creates %d, deletes %d, updates in place %d; want %d, %d, %d",
					len(got.Create), len(got.Delete), len(got.UpdateInPlace), tc.creates, tc.deletes, tc.inPlace)
			}
		})
	}
}
