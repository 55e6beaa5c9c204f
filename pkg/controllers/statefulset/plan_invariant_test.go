package statefulset

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"
)

func randomParams(r *rand.Rand) Params {
	p := Params{
		Replicas:       r.Intn(8),
		Start:          r.Intn(3),
		Parallel:       r.Intn(2) == 0,
		RollingUpdate:  r.Intn(5) > 0,
		Paused:         r.Intn(6) == 0,
		Partition:      r.Intn(5),
		MaxUnavailable: 1 + r.Intn(4),
		Unordered:      r.Intn(3) == 0,
	}
	if !p.Parallel {
		p.MaxUnavailable = 1 // validation: only Parallel may go above 1
	}
	if p.Parallel && r.Intn(2) == 0 {
		p.ScaleMaxUnavailable = 1 + r.Intn(3)
	}
	var entries []intstr.IntOrString
	for range r.Intn(3) {
		if r.Intn(2) == 0 {
			entries = append(entries, intstr.FromInt32(int32(r.Intn(10))))
		} else {
			lo := r.Intn(10)
			entries = append(entries, intstr.FromString(fmt.Sprintf("%d-%d", lo, lo+r.Intn(3))))
		}
	}
	p.Reserved, _ = ParseReserved(entries)
	p.Partition = min(p.Partition, p.Replicas)
	return p
}

func randomPods(r *rand.Rand) []PodState {
	var out []PodState
	for ord := range 14 {
		if r.Intn(2) == 0 {
			continue
		}
		p := PodState{Ordinal: ord, Updated: r.Intn(2) == 0, Available: r.Intn(3) > 0, Priority: int64(r.Intn(3))}
		switch r.Intn(10) {
		case 0:
			p.Terminating, p.Available = true, false
		case 1:
			p.Failed, p.Available = true, false
		}
		out = append(out, p)
	}
	return out
}

// checkPlan asserts what must hold of any plan, whatever the input.
func checkPlan(t *testing.T, pods []PodState, p Params, plan Plan) {
	t.Helper()
	byOrd := map[int]PodState{}
	for _, s := range pods {
		byOrd[s.Ordinal] = s
	}
	desired := DesiredOrdinals(p.Start, p.Replicas, p.Reserved)
	position := map[int]int{}
	for i, o := range desired {
		position[o] = i
	}
	if plan.Desired.Len() != p.Replicas {
		t.Fatalf("%d desired ordinals for %d replicas", plan.Desired.Len(), p.Replicas)
	}
	for o := range 30 {
		if pos, ok := plan.Desired.Position(o); ok != (position[o] == pos && slices.Contains(desired, o)) {
			t.Fatalf("plan.Desired.Position(%d) = %d, %v; desired ordinals %v", o, pos, ok, desired)
		}
	}

	touched := map[int]string{}
	touch := func(ord int, what string) {
		if prev, ok := touched[ord]; ok {
			t.Fatalf("ordinal %d planned twice: %s and %s", ord, prev, what)
		}
		touched[ord] = what
	}
	for _, c := range plan.Create {
		touch(c.Ordinal, "create")
		if _, exists := byOrd[c.Ordinal]; exists {
			t.Fatalf("creates ordinal %d, which exists", c.Ordinal)
		}
		pos, ok := position[c.Ordinal]
		if !ok {
			t.Fatalf("creates undesired ordinal %d", c.Ordinal)
		}
		if !p.Unordered && c.AtCurrent != (p.RollingUpdate && pos < p.Partition) {
			t.Fatalf("creates ordinal %d (position %d) AtCurrent=%v with partition %d", c.Ordinal, pos, c.AtCurrent, p.Partition)
		}
	}
	for _, d := range plan.Delete {
		touch(d.Ordinal, "delete")
		s, exists := byOrd[d.Ordinal]
		if !exists || s.Terminating {
			t.Fatalf("deletes ordinal %d, which does not exist or terminates already", d.Ordinal)
		}
		if _, desired := position[d.Ordinal]; desired != (d.Reason == DeleteFailed) || (d.Reason == DeleteFailed && !s.Failed) {
			t.Fatalf("deletes ordinal %d for %s (desired %v, failed %v)", d.Ordinal, d.Reason, desired, s.Failed)
		}
	}
	oldBefore := 0
	for _, o := range desired {
		if s, ok := byOrd[o]; ok && !s.Updated && !s.Terminating && !s.Failed {
			oldBefore++
		}
	}
	costly := 0
	for _, o := range plan.Update {
		touch(o, "update")
		s, exists := byOrd[o]
		pos, desired := position[o]
		if !exists || !desired || s.Updated || s.Terminating || s.Failed {
			t.Fatalf("updates ordinal %d: exists %v desired %v state %+v", o, exists, desired, s)
		}
		if !p.Unordered && pos < p.Partition {
			t.Fatalf("updates ordinal %d at position %d below partition %d", o, pos, p.Partition)
		}
		if s.Available {
			costly++
		}
	}
	if p.Unordered && oldBefore-len(plan.Update) < min(p.Partition, oldBefore) {
		t.Fatalf("unordered update leaves %d old pods, partition %d", oldBefore-len(plan.Update), p.Partition)
	}
	if len(plan.Update) > 0 && (!p.RollingUpdate || p.Paused) {
		t.Fatalf("updates %v while OnDelete or paused", plan.Update)
	}

	// Availability: the update never takes the set beyond maxUnavailable.
	unavailBefore := 0
	for _, o := range desired {
		s, ok := byOrd[o]
		if !ok || unavailable(&s) {
			unavailBefore++
		}
	}
	if after := unavailBefore + costly; costly > 0 && after > p.MaxUnavailable {
		t.Fatalf("update makes %d pods unavailable (before %d), maxUnavailable %d", after, unavailBefore, p.MaxUnavailable)
	}
	// Scaling: creations stop at scaleStrategy.maxUnavailable.
	if p.Parallel && p.ScaleMaxUnavailable > 0 && len(plan.Create) > 0 {
		existing := 0
		for _, o := range desired {
			if s, ok := byOrd[o]; ok && unavailable(&s) {
				existing++
			}
		}
		if existing+len(plan.Create) > p.ScaleMaxUnavailable {
			t.Fatalf("creates %d with %d unavailable, scale maxUnavailable %d", len(plan.Create), existing, p.ScaleMaxUnavailable)
		}
	}
	// OrderedReady: one step at a time, each only once everything before it is available.
	if !p.Parallel {
		if len(plan.Create)+len(plan.Delete) > 1 {
			t.Fatalf("OrderedReady plans %d creations and deletions at once", len(plan.Create)+len(plan.Delete))
		}
		for _, c := range plan.Create {
			for _, o := range desired[:position[c.Ordinal]] {
				if s, ok := byOrd[o]; !ok || unavailable(&s) {
					t.Fatalf("OrderedReady creates %d while %d is not available", c.Ordinal, o)
				}
			}
		}
		if len(plan.Update) > 0 && (len(plan.Create) > 0 || len(plan.Delete) > 0 || unavailBefore > 0) {
			t.Fatalf("OrderedReady updates %v before every pod is available", plan.Update)
		}
	}
}

func TestComputeInvariants(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := range 20000 {
		p := randomParams(r)
		pods := randomPods(r)
		plan := Compute(slices.Clone(pods), p)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("params %+v pods %+v", p, pods)
				}
			}()
			checkPlan(t, pods, p, plan)
		})
		if t.Failed() {
			return
		}
	}
}

// simulate runs a set to convergence against a fake kubelet that makes pods available,
// finishes deletions and sometimes does neither for a while, checking every plan. It
// returns the pods in the end.
func simulate(t *testing.T, r *rand.Rand, p Params, start []PodState) map[int]PodState {
	t.Helper()
	pods := map[int]PodState{}
	for _, s := range start {
		pods[s.Ordinal] = s
	}
	list := func() []PodState {
		out := make([]PodState, 0, len(pods))
		for _, s := range pods {
			out = append(out, s)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Ordinal < out[j].Ordinal })
		return out
	}
	for step := range 1000 {
		in := list()
		plan := Compute(slices.Clone(in), p)
		checkPlan(t, in, p, plan)
		if t.Failed() {
			return pods
		}
		for _, c := range plan.Create {
			pods[c.Ordinal] = PodState{Ordinal: c.Ordinal, Updated: !c.AtCurrent, Priority: int64(r.Intn(3))}
		}
		for _, d := range plan.Delete {
			s := pods[d.Ordinal]
			s.Terminating, s.Available = true, false
			pods[d.Ordinal] = s
		}
		for _, o := range plan.Update {
			s := pods[o]
			if r.Intn(2) == 0 { // in place
				s.Updated, s.Available = true, false
			} else { // recreate: deleted now, created at the update revision later
				s.Terminating, s.Available = true, false
			}
			pods[o] = s
		}
		settled := len(plan.Create)+len(plan.Delete)+len(plan.Update) == 0
		for ord, s := range pods {
			switch {
			case s.Terminating && r.Intn(2) == 0:
				delete(pods, ord)
				settled = false
			case !s.Terminating && !s.Failed && !s.Available && r.Intn(2) == 0:
				s.Available = true
				pods[ord] = s
				settled = false
			case s.Terminating || !s.Available:
				settled = false
			}
		}
		if settled && step > 0 {
			return pods
		}
	}
	t.Fatalf("no convergence after 1000 steps: %+v", list())
	return pods
}

func TestRolloutConverges(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := range 3000 {
		p := randomParams(r)
		p.Paused = false
		start := randomPods(r)
		for j := range start {
			start[j].Failed = start[j].Failed && r.Intn(2) == 0
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			end := simulate(t, r, p, start)
			if t.Failed() {
				t.Logf("params %+v start %+v", p, start)
				return
			}
			// Every desired ordinal runs exactly once, nothing else does.
			var got []int
			for o := range end {
				got = append(got, o)
			}
			sort.Ints(got)
			want := DesiredOrdinals(p.Start, p.Replicas, p.Reserved)
			if !slices.Equal(got, want) {
				t.Fatalf("ordinals %v, want %v (params %+v start %+v)", got, want, p, start)
			}
			if !p.RollingUpdate {
				return
			}
			old := 0
			for pos, o := range want {
				if end[o].Updated {
					continue
				}
				old++
				if !p.Unordered && pos >= p.Partition {
					t.Fatalf("ordinal %d (position %d) is old with partition %d", o, pos, p.Partition)
				}
			}
			if old > p.Partition {
				t.Fatalf("%d old pods with partition %d", old, p.Partition)
			}
		})
		if t.Failed() {
			return
		}
	}
}
