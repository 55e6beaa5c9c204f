package cloneset

import (
	"slices"
	"testing"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podorder"
)

// Pods a preDelete hook holds in PreparingDelete: counted by default (no replacement
// while held, OpenKruise's default), not counted with ExcludePreparingDelete.
func TestComputePreparingDelete(t *testing.T) {
	held := func(name string, updated, specified bool) PodInfo {
		return PodInfo{Candidate: podorder.Candidate{Name: name, PreparingDelete: true}, Updated: updated, SpecifiedDelete: specified}
	}
	ok := func(name string, updated bool) PodInfo {
		return PodInfo{Candidate: podorder.Candidate{Name: name, Available: true}, Updated: updated}
	}
	cases := []struct {
		name       string
		pods       []PodInfo
		exclude    bool
		replicas   int
		wantCreate int
		wantDelete []string
		wantHeld   []string
	}{
		{name: "specified, the hook will hold it: counted from the start",
			pods: []PodInfo{ok("a", true), {Candidate: podorder.Candidate{Name: "b", Available: true}, Updated: true, SpecifiedDelete: true, HeldOnDelete: true}}, replicas: 2, wantDelete: []string{"b"}},
		{name: "specified, no hook: replaced at once",
			pods: []PodInfo{ok("a", true), {Candidate: podorder.Candidate{Name: "b", Available: true}, Updated: true, SpecifiedDelete: true}}, replicas: 2, wantCreate: 1, wantDelete: []string{"b"}},
		{name: "specified and held: counted, no replacement yet",
			pods: []PodInfo{ok("a", true), held("b", true, true)}, replicas: 2, wantDelete: []string{"b"}},
		{name: "specified and held, excluded: replaced at once",
			pods: []PodInfo{ok("a", true), held("b", true, true)}, replicas: 2, exclude: true, wantCreate: 1, wantHeld: []string{"b"}},
		{name: "held by a recreate update: counted, no replacement, nothing else deleted",
			pods: []PodInfo{ok("a", false), held("b", false, false)}, replicas: 2},
		{name: "held by a recreate update, excluded: its replacement comes, and the update goes on",
			pods: []PodInfo{ok("a", false), ok("c", false), held("b", false, false)}, replicas: 3, exclude: true, wantCreate: 1, wantHeld: []string{"b"}},
		{name: "scaled down, held and specified: the surplus is that pod, no second victim",
			pods: []PodInfo{ok("a", true), ok("c", true), held("b", true, true)}, replicas: 2, wantDelete: []string{"b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := Limits{Replicas: tc.replicas, MaxUnavailable: 1, ScaleMaxUnavailable: -1, ExcludePreparingDelete: tc.exclude}
			p := Compute(tc.pods, l)
			if p.CreateUpdated+p.CreateCurrent != tc.wantCreate {
				t.Errorf("creates %d+%d, want %d", p.CreateUpdated, p.CreateCurrent, tc.wantCreate)
			}
			if !slices.Equal(p.Delete, tc.wantDelete) || !slices.Equal(p.Held, tc.wantHeld) {
				t.Errorf("delete %v held %v, want %v %v", p.Delete, p.Held, tc.wantDelete, tc.wantHeld)
			}
		})
	}
}
