package cloneset

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Pods an inPlaceUpdate hook holds in PreparingUpdate: with PreparingUpdateAsUpdate,
// scaling counts them as updated (creations at the current revision, deletions among
// the other old pods), and the update takes them first either way.
func TestComputePreparingUpdate(t *testing.T) {
	cases := []struct {
		name    string
		pods    string
		l       Limits
		off, on Plan
	}{
		{"scale-up with the partition: the new pod at the update revision unless the held pod counts",
			"POO", Limits{Replicas: 4, Partition: 3, MaxUnavailable: 2, ScaleMaxUnavailable: -1},
			Plan{CreateUpdated: 1, ExpectedUpdated: 1},
			Plan{CreateCurrent: 1, Update: []string{"p0"}, ExpectedUpdated: 1}},
		{"scale-down with the partition: the held pod goes first unless it counts as updated",
			"pOO", Limits{Replicas: 2, Partition: 1, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{Delete: []string{"p0"}, ExpectedUpdated: 1},
			Plan{Delete: []string{"p2"}, ExpectedUpdated: 1}},
		{"a replacement for a pod deleted by hand", "PO", Limits{Replicas: 3, Partition: 2, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{CreateUpdated: 1, ExpectedUpdated: 1},
			Plan{CreateCurrent: 1, ExpectedUpdated: 1}},
		{"the update takes the held pod first", "oOP", Limits{Replicas: 3, MaxUnavailable: 2, ScaleMaxUnavailable: -1},
			Plan{Update: []string{"p2", "p0"}, ExpectedUpdated: 3},
			Plan{Update: []string{"p2", "p0"}, ExpectedUpdated: 3}},
		{"a pod created meanwhile does not take the held pod's place while the budget is spent",
			"POOo", Limits{Replicas: 4, Partition: 3, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			Plan{ExpectedUpdated: 1},
			Plan{ExpectedUpdated: 1}},
		{"held pods are updated as far as the partition lets", "PPO", Limits{Replicas: 3, Partition: 2, MaxUnavailable: 2, ScaleMaxUnavailable: -1},
			Plan{Update: []string{"p0"}, ExpectedUpdated: 1},
			Plan{Update: []string{"p0"}, ExpectedUpdated: 1}},
	}
	for _, tc := range cases {
		for _, gate := range []bool{false, true} {
			want := tc.off
			if gate {
				want = tc.on
			}
			l := tc.l
			l.PreparingUpdateAsUpdate = gate
			t.Run(tc.name, func(t *testing.T) {
				got := Compute(pods(tc.pods), l)
				if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("PreparingUpdateAsUpdate=%v: plan differs (-want +got):\n%s", gate, diff)
				}
			})
		}
	}
}
