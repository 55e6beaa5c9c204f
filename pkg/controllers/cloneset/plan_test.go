package cloneset

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podorder"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	intstrutil "k8s.io/apimachinery/pkg/util/intstr"
)

func pods(spec string) []PodInfo {
	// spec: one letter per pod: U updated+available, u updated+unavailable,
	// O old+available, o old+unavailable, D/d old specified for deletion,
	// P/p old in PreparingUpdate (available/unavailable). Each pod is created a
	// second after the one before it, so of equals the last is deleted first.
	var out []PodInfo
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range spec {
		p := PodInfo{Candidate: podorder.Candidate{Name: fmt.Sprintf("p%d", i), CreationTime: created.Add(time.Duration(i) * time.Second)}}
		switch c {
		case 'U':
			p.Updated, p.Available = true, true
		case 'u':
			p.Updated = true
		case 'O':
			p.Available = true
		case 'D':
			p.Available, p.SpecifiedDelete = true, true
		case 'd':
			p.SpecifiedDelete = true
		case 'P':
			p.Available, p.PreparingUpdate = true, true
		case 'p':
			p.PreparingUpdate = true
		}
		out = append(out, p)
	}
	return out
}

func TestResolveLimits(t *testing.T) {
	pct := func(s string) *intstrutil.IntOrString { v := intstrutil.FromString(s); return &v }
	num := func(i int) *intstrutil.IntOrString { v := intstrutil.FromInt32(int32(i)); return &v }
	cases := []struct {
		name                            string
		replicas                        int
		partition, unavail, surge, sunv *intstrutil.IntOrString
		want                            Limits
	}{
		{"defaults 20% of 10", 10, num(0), pct("20%"), num(0), nil, Limits{Replicas: 10, MaxUnavailable: 2, ScaleMaxUnavailable: -1}},
		{"percent rounds up without surge", 3, pct("50%"), pct("20%"), num(0), nil, Limits{Replicas: 3, Partition: 2, MaxUnavailable: 1, ScaleMaxUnavailable: -1}},
		{"maxUnavailable rounds down with surge", 4, num(0), pct("20%"), pct("50%"), nil, Limits{Replicas: 4, MaxUnavailable: 0, MaxSurge: 2, ScaleMaxUnavailable: -1}},
		{"both zero becomes one unavailable", 4, num(0), num(0), num(0), nil, Limits{Replicas: 4, MaxUnavailable: 1, ScaleMaxUnavailable: -1}},
		{"partition above replicas is clamped", 3, num(10), num(1), num(0), num(1), Limits{Replicas: 3, Partition: 3, MaxUnavailable: 1, ScaleMaxUnavailable: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolveLimits(tc.replicas, tc.partition, tc.unavail, tc.surge, tc.sunv, false)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("limits differ (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompute(t *testing.T) {
	cases := []struct {
		name string
		pods string
		l    Limits
		want Plan
	}{
		{"create from nothing", "", Limits{Replicas: 3, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{CreateUpdated: 3, ExpectedUpdated: 3}},
		{"steady state does nothing", "UUU", Limits{Replicas: 3, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{ExpectedUpdated: 3}},
		{"scale down deletes unavailable first", "UuU", Limits{Replicas: 2, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{Delete: []string{"p1"}, ExpectedUpdated: 2}},
		{"rolling update one at a time", "OOOO", Limits{Replicas: 4, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{Update: []string{"p0"}, ExpectedUpdated: 4}},
		{"unavailable old pods update for free", "OoOo", Limits{Replicas: 4, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{Update: []string{"p1", "p3"}, ExpectedUpdated: 4}},
		{"waits while the budget is used", "uOOO", Limits{Replicas: 4, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{ExpectedUpdated: 4}},
		{"partition 2 of 4 leaves two old", "UUOO", Limits{Replicas: 4, Partition: 2, MaxUnavailable: 2, ScaleMaxUnavailable: -1},
			Plan{ExpectedUpdated: 2}},
		{"partition: scale-up creates old pods for the partition", "UU", Limits{Replicas: 4, Partition: 2, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{CreateCurrent: 2, ExpectedUpdated: 2}},
		{"paused: scale but no update", "OO", Limits{Replicas: 3, MaxUnavailable: 1, Paused: true, ScaleMaxUnavailable: -1},
			Plan{CreateUpdated: 1, ExpectedUpdated: 3}},
		{"surge creates an extra updated pod first", "OOOO", Limits{Replicas: 4, MaxSurge: 1, ScaleMaxUnavailable: -1},
			Plan{CreateUpdated: 1, ExpectedUpdated: 4}},
		{"surge: an old pod goes once the new one serves", "OOOOU", Limits{Replicas: 4, MaxSurge: 1, ScaleMaxUnavailable: -1},
			Plan{Update: []string{"p0"}, ExpectedUpdated: 4}},
		{"surge pods are removed when the update is done", "UUUUU", Limits{Replicas: 4, MaxSurge: 1, ScaleMaxUnavailable: -1},
			Plan{Delete: []string{"p4"}, ExpectedUpdated: 4}},
		{"specified delete first, and no update in that sync", "DOOO", Limits{Replicas: 4, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{Delete: []string{"p0"}, CreateUpdated: 1, ExpectedUpdated: 4}},
		{"specified delete with fewer replicas", "UDUUU", Limits{Replicas: 4, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{Delete: []string{"p1"}, ExpectedUpdated: 4}},
		{"scale-up limited by scaleStrategy.maxUnavailable", "Uu", Limits{Replicas: 5, MaxUnavailable: 1, ScaleMaxUnavailable: 1},
			Plan{ScaleUpLimited: 3, ExpectedUpdated: 5}},
		{"scale-up limit lets one pod in", "UU", Limits{Replicas: 5, MaxUnavailable: 1, ScaleMaxUnavailable: 1},
			Plan{CreateUpdated: 1, ScaleUpLimited: 2, ExpectedUpdated: 5}},
		{"scale down during a partitioned rollout removes surplus old pods", "UOOO", Limits{Replicas: 3, Partition: 1, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{Delete: []string{"p3"}, ExpectedUpdated: 2}},
		// CloneSetPartitionRollback: a raised partition takes updated pods back.
		{"partition raised: without the gate updated pods stay", "UUUU", Limits{Replicas: 4, Partition: 3, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{ExpectedUpdated: 1}},
		{"partition raised: rollback one at a time, last in update order first", "UUUU",
			Limits{Replicas: 4, Partition: 3, MaxUnavailable: 1, ScaleMaxUnavailable: -1, PartitionRollback: true},
			Plan{Rollback: []string{"p3"}, ExpectedUpdated: 1}},
		{"partition raised: unavailable updated pods go back for free", "uUuU",
			Limits{Replicas: 4, Partition: 3, MaxUnavailable: 1, ScaleMaxUnavailable: -1, PartitionRollback: true},
			Plan{Rollback: []string{"p2", "p0"}, ExpectedUpdated: 1}},
		{"partition raised: rollback waits while the budget is used", "UUUo",
			Limits{Replicas: 4, Partition: 3, MaxUnavailable: 1, ScaleMaxUnavailable: -1, PartitionRollback: true},
			Plan{ExpectedUpdated: 1}},
		{"partition raised: paused holds the rollback", "UUUU",
			Limits{Replicas: 4, Partition: 3, MaxUnavailable: 1, ScaleMaxUnavailable: -1, PartitionRollback: true, Paused: true},
			Plan{ExpectedUpdated: 1}},
		{"partition met: nothing to roll back", "UOOO",
			Limits{Replicas: 4, Partition: 3, MaxUnavailable: 1, ScaleMaxUnavailable: -1, PartitionRollback: true},
			Plan{ExpectedUpdated: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Compute(pods(tc.pods), tc.l)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("plan differs (-want +got):\n%s", diff)
			}
		})
	}
}

// Invariants over generated inputs: whatever the pods and limits, one plan never
// takes availability below replicas-maxUnavailable by updating, never exceeds
// replicas+maxSurge pods, never updates past the partition, and always deletes the
// pods specified for deletion.
func TestComputeInvariants(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	letters := []rune("UuOoDd")
	for i := range 20000 {
		n := rng.Intn(12)
		spec := make([]rune, n)
		for j := range spec {
			spec[j] = letters[rng.Intn(len(letters))]
		}
		replicas := rng.Intn(10)
		l := Limits{
			Replicas:            replicas,
			Partition:           rng.Intn(replicas + 1),
			MaxSurge:            rng.Intn(3),
			MaxUnavailable:      rng.Intn(4),
			ScaleMaxUnavailable: rng.Intn(4) - 1,
			Paused:              rng.Intn(5) == 0,
		}
		if l.MaxUnavailable == 0 && l.MaxSurge == 0 {
			l.MaxUnavailable = 1
		}
		in := pods(string(spec))
		plan := Compute(in, l)
		check := func(ok bool, format string, args ...any) {
			if !ok {
				t.Fatalf("case %d pods=%s limits=%+v plan=%+v: %s", i, string(spec), l, plan, fmt.Sprintf(format, args...))
			}
		}

		byName := map[string]PodInfo{}
		kept, available, updated := 0, 0, 0
		for _, p := range in {
			byName[p.Name] = p
			if p.SpecifiedDelete {
				check(slices.Contains(plan.Delete, p.Name), "specified pod %s not deleted", p.Name)
				continue
			}
			kept++
			if p.Available {
				available++
			}
			if p.Updated {
				updated++
			}
		}
		creates := plan.CreateUpdated + plan.CreateCurrent
		check(creates == 0 || kept+creates <= l.Replicas+l.MaxSurge, "creates %d on %d pods exceed replicas+maxSurge", creates, kept)
		check(creates == 0 || len(plan.Delete) == 0 || !hasUnspecified(plan.Delete, byName), "creates and surplus deletes in one plan")

		takenDown := 0
		for _, name := range plan.Update {
			p := byName[name]
			check(!p.Updated && !p.SpecifiedDelete, "update picked %+v", p)
			if p.Available {
				takenDown++
			}
		}
		check(takenDown == 0 || available-takenDown >= l.Replicas-l.MaxUnavailable,
			"updating %d available pods leaves %d available, below %d", takenDown, available-takenDown, l.Replicas-l.MaxUnavailable)
		check(!l.Paused || len(plan.Update) == 0, "updates while paused")
		if updated <= plan.ExpectedUpdated {
			check(updated+plan.CreateUpdated+len(plan.Update) <= plan.ExpectedUpdated, "plan updates past the partition")
		}
	}
}

func hasUnspecified(names []string, pods map[string]PodInfo) bool {
	for _, n := range names {
		if !pods[n].SpecifiedDelete {
			return true
		}
	}
	return false
}

// priorityStrategy: of two equally available old pods, the higher priority updates first.
func TestComputeHonoursPriority(t *testing.T) {
	in := pods("OOO")
	in[2].Priority = 50
	got := Compute(in, Limits{Replicas: 3, MaxUnavailable: 1, ScaleMaxUnavailable: -1})
	if !slices.Equal(got.Update, []string{"p2"}) {
		t.Fatalf("updated %v first, want [p2] (priority 50)", got.Update)
	}
}

// A pod a preDelete hook already holds is the one removed, not a second victim.
func TestComputeDeletesPreparingDeleteFirst(t *testing.T) {
	in := pods("UUu")
	in[0].PreparingDelete = true
	got := Compute(in, Limits{Replicas: 2, MaxUnavailable: 1, ScaleMaxUnavailable: -1})
	if !slices.Equal(got.Delete, []string{"p0"}) {
		t.Fatalf("deleted %v, want [p0] (already PreparingDelete)", got.Delete)
	}
}

// Scale-down honours pod-deletion-cost (a WorkloadSpread's order): of equally available
// pods, the lowest cost goes first, before priority and name.
func TestComputeHonoursDeletionCost(t *testing.T) {
	in := pods("UUUU")
	in[0].DeletionCost, in[1].DeletionCost, in[2].DeletionCost, in[3].DeletionCost = 200, 100, 200, 100
	in[1].Priority = 10
	got := Compute(in, Limits{Replicas: 2, MaxUnavailable: 1, ScaleMaxUnavailable: -1})
	slices.Sort(got.Delete)
	if !slices.Equal(got.Delete, []string{"p1", "p3"}) {
		t.Fatalf("deleted %v, want [p1 p3] (cost 100)", got.Delete)
	}
}

// scatterStrategy: pods labelled foo=bar are spread over the update order instead of
// going in one batch (OpenKruise's documented example: 3 of 10 pods go 1st, 6th, 10th).
func TestComputeScattersUpdates(t *testing.T) {
	in := pods("OOOOOOOOOO")
	for _, i := range []int{0, 1, 2} {
		in[i].Labels = map[string]string{"foo": "bar"}
	}
	got := Compute(in, Limits{Replicas: 10, MaxUnavailable: 10, ScaleMaxUnavailable: -1,
		Scatter: []pub.UpdateScatterTerm{{Key: "foo", Value: "bar"}}})
	var at []int
	for i, name := range got.Update {
		if name == "p0" || name == "p1" || name == "p2" {
			at = append(at, i)
		}
	}
	if !slices.Equal(at, []int{0, 5, 9}) {
		t.Fatalf("foo=bar pods at update positions %v (%v), want [0 5 9]", at, got.Update)
	}
}

// Scale-in takes pods in the ReplicaSet controller's order, as OpenKruise's CloneSet
// does: of equally available pods at one revision, those sharing a node with more of
// the CloneSet's pods first, then the one ready for the shortest time, then the newest.
func TestComputeScaleInOrder(t *testing.T) {
	ready := time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)
	cases := []struct {
		name  string
		setup func(in []PodInfo)
		want  []string
	}{
		{"the newest when all else is equal", func([]PodInfo) {}, []string{"p2"}},
		{"a pod on the most crowded node before a newer one", func(in []PodInfo) {
			in[0].Node, in[1].Node, in[2].Node = "n1", "n1", "n2"
		}, []string{"p1"}},
		{"the pod ready for the shortest time before a newer one", func(in []PodInfo) {
			in[0].ReadyTime = ready.Add(time.Minute)
		}, []string{"p0"}},
		{"a pod with more restarts before a newer one", func(in []PodInfo) {
			in[1].Restarts = 2
		}, []string{"p1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := pods("UUU")
			for i := range in {
				in[i].Ready, in[i].ReadyTime, in[i].Node = true, ready, "n"+fmt.Sprint(i)
			}
			tc.setup(in)
			got := Compute(in, Limits{Replicas: 2, MaxUnavailable: 1, ScaleMaxUnavailable: -1})
			if !slices.Equal(got.Delete, tc.want) {
				t.Fatalf("deleted %v, want %v", got.Delete, tc.want)
			}
		})
	}
}
