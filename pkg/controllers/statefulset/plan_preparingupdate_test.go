package statefulset

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// PreparingUpdateAsUpdate in unordered updates: a pod an inPlaceUpdate hook holds in
// PreparingUpdate (h) counts as updated when a pod is created in the partition's stead,
// and comes first in the update order; ordered updates go by ordinal either way.
func TestComputePreparingUpdate(t *testing.T) {
	unordered := func(replicas, partition int) Params {
		return with(parallel(replicas), func(p *Params) { p.Unordered, p.Partition = true, partition })
	}
	cases := []struct {
		name    string
		pods    string
		p       Params
		off, on Plan
	}{
		{"a pod recreated in the partition: at the current revision unless the held pod counts",
			"0Oh 1O", unordered(3, 2),
			Plan{Create: []Creation{{Ordinal: 2}}},
			Plan{Create: []Creation{{Ordinal: 2, AtCurrent: true}}}},
		{"the held pod is updated, not one of higher priority",
			"0O:10 1Oh:0 2O:5", unordered(3, 2),
			Plan{Update: []int{0}},
			Plan{Update: []int{1}}},
		{"ordered updates go by ordinal",
			"0O 1Oh 2O", with(ordered(3), func(p *Params) { p.Partition = 2 }),
			Plan{Update: []int{2}},
			Plan{Update: []int{2}}},
	}
	for _, tc := range cases {
		for _, gate := range []bool{false, true} {
			want := tc.off
			if gate {
				want = tc.on
			}
			p := tc.p
			p.PreparingUpdateAsUpdate = gate
			t.Run(tc.name, func(t *testing.T) {
				got := Compute(states(tc.pods), p)
				if diff := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(Plan{}, "Desired")); diff != "" {
					t.Errorf("PreparingUpdateAsUpdate=%v: plan differs (-want +got):\n%s", gate, diff)
				}
			})
		}
	}
}
