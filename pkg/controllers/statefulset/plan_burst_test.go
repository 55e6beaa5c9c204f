package statefulset

import (
	"math"
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
)

// running is n pods at ordinals from..from+n-1, all in state (as states reads it).
func running(from, n int, state PodState) []PodState {
	out := make([]PodState, n)
	for i := range out {
		out[i] = state
		out[i].Ordinal = from + i
	}
	return out
}

// However large replicas, partition or maxUnavailable, one plan creates, deletes and
// updates at most batch.Burst pods each, and costs time in proportion to the pods
// that exist, not to replicas (issue 32: a set of 2147483647 replicas listed every
// desired ordinal, 16 GiB, before creating any).
func TestComputeIsBoundedByBurst(t *testing.T) {
	const huge = math.MaxInt32
	available := PodState{Updated: true, Available: true}
	old := PodState{Available: true}
	cases := []struct {
		name    string
		pods    []PodState
		p       Params
		creates []int // the first and last ordinal created; nil: none
		current int   // creations at the current revision
		deletes int
		updates int
	}{
		{name: "Parallel, huge replicas, no pods", p: parallel(huge),
			creates: []int{0, batch.Burst - 1}},
		{name: "Parallel, huge replicas, a quota's 20 pods", p: parallel(huge), pods: running(0, 20, available),
			creates: []int{20, 19 + batch.Burst}},
		{name: "Parallel: a failed pod far above the burst is still found and replaced",
			p:       parallel(huge),
			pods:    append(running(0, 3, available), PodState{Ordinal: 1_000_000_000, Failed: true}),
			creates: []int{3, 2 + batch.Burst}, deletes: 1},
		{name: "OrderedReady, huge replicas: one at a time", p: ordered(huge), pods: running(0, 20, available),
			creates: []int{20, 20}},
		{name: "huge partition: the burst's pods stay at the current revision",
			p:       with(parallel(huge), func(p *Params) { p.Partition = huge - 10 }),
			creates: []int{0, batch.Burst - 1}, current: batch.Burst},
		{name: "huge scale-up maxUnavailable", p: with(parallel(huge), func(p *Params) { p.ScaleMaxUnavailable = huge }),
			creates: []int{0, batch.Burst - 1}},
		{name: "huge reserved range below the pods", p: with(parallel(huge), func(p *Params) { p.Reserved = reserve("0-2000000000") }),
			creates: []int{2000000001, 2000000000 + batch.Burst}},
		{name: "Parallel scale-down of more pods than the burst", p: parallel(0), pods: running(0, 3*batch.Burst, available),
			deletes: batch.Burst},
		{name: "huge maxUnavailable updates at most the burst",
			p:    with(parallel(2*batch.Burst), func(p *Params) { p.MaxUnavailable = huge }),
			pods: running(0, 2*batch.Burst, old), updates: batch.Burst},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			got := Compute(tc.pods, tc.p)
			if d := time.Since(start); d > time.Second {
				t.Errorf("Compute took %s: it walks replicas, not pods", d)
			}
			switch {
			case tc.creates == nil && len(got.Create) > 0:
				t.Errorf("creates %d pods, want none", len(got.Create))
			case tc.creates != nil && (len(got.Create) == 0 || got.Create[0].Ordinal != tc.creates[0] || got.Create[len(got.Create)-1].Ordinal != tc.creates[1]):
				t.Errorf("creates %d pods, want ordinals %d..%d", len(got.Create), tc.creates[0], tc.creates[1])
			}
			if len(got.Create) > batch.Burst {
				t.Errorf("creates %d pods, more than the burst", len(got.Create))
			}
			current := 0
			for _, c := range got.Create {
				if c.AtCurrent {
					current++
				}
			}
			if current != tc.current {
				t.Errorf("creates %d pods at the current revision, want %d", current, tc.current)
			}
			if len(got.Delete) != tc.deletes {
				t.Errorf("deletes %d pods, want %d", len(got.Delete), tc.deletes)
			}
			if len(got.Update) != tc.updates {
				t.Errorf("updates %d pods, want %d", len(got.Update), tc.updates)
			}
		})
	}
}
