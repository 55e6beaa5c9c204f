package daemonset

import (
	"slices"
	"testing"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/nodeplacement"
)

func TestPartitionedCreates(t *testing.T) {
	nodes := []string{"a", "b", "c", "d"}
	for _, tc := range []struct {
		name                        string
		partitioned                 bool
		desired, updated, partition int
		want                        []string
	}{
		{name: "off: every node gets a pod", desired: 4, partition: 3, want: nodes},
		{name: "on, partition 0: every node", partitioned: true, desired: 4, want: nodes},
		{name: "on, partition holds the rest", partitioned: true, desired: 4, partition: 3, want: []string{"a"}},
		{name: "on, updated pods count against it", partitioned: true, desired: 6, updated: 2, partition: 2, want: []string{"a", "b"}},
		{name: "on, partition reached: none", partitioned: true, desired: 6, updated: 3, partition: 3, want: []string{}},
		{name: "on, partition above desired: none", partitioned: true, desired: 4, partition: 10, want: []string{}},
		{name: "on, negative partition counts as 0", partitioned: true, desired: 4, partition: -1, want: nodes},
		{name: "on, more room than nodes needing one", partitioned: true, desired: 10, partition: 1, want: nodes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := partitionedCreates(slices.Clone(nodes), tc.partitioned, tc.desired, tc.updated, tc.partition)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// Through Compute: a new set of four nodes with partition 3 and partitionedScaling
// creates one pod; without it, four; a paused set creates as it would unpaused (the
// partition, not the pause, holds creations).
func TestComputePartitionedScaling(t *testing.T) {
	run := nodeplacement.Eligibility{ShouldRun: true, ShouldContinueRunning: true}
	var nodes []Node
	for _, n := range []string{"d", "b", "a", "c"} {
		nodes = append(nodes, Node{Name: n, Eligibility: run, UpdateSelected: true})
	}
	for _, tc := range []struct {
		name string
		l    Limits
		want []string
	}{
		{"off", Limits{MaxUnavailable: 1, Partition: 3}, []string{"a", "b", "c", "d"}},
		{"on", Limits{MaxUnavailable: 1, Partition: 3, PartitionedScaling: true}, []string{"a"}},
		{"on, paused", Limits{MaxUnavailable: 1, Partition: 3, PartitionedScaling: true, Paused: true}, []string{"a"}},
		{"on, burst", Limits{MaxUnavailable: 1, PartitionedScaling: true, Burst: 2}, []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Compute(nodes, tc.l).Create; !slices.Equal(got, tc.want) {
				t.Errorf("Create = %v, want %v", got, tc.want)
			}
		})
	}
	// Once one node runs an updated pod, a partition of 2 lets one more come.
	nodes[2].Pods = []Pod{{Name: "a-1", Updated: true, Available: true}}
	got := Compute(nodes, Limits{MaxUnavailable: 1, Partition: 2, PartitionedScaling: true}).Create
	if want := []string{"b"}; !slices.Equal(got, want) {
		t.Errorf("with a updated, Create = %v, want %v", got, want)
	}
}
