package uniteddeployment

import (
	"sort"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/rules/uniteddeployment"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// Plan is what one sync does to the subsets' workloads.
type Plan struct {
	// Replicas is each subset's share of spec.replicas, by subset name.
	Replicas map[string]int32
	// Create names the subsets that have no workload.
	Create []string
	// Keep is the one workload kept per subset (the oldest).
	Keep map[string]workload
	// Delete are the workloads of subsets no longer in the topology, and the extra
	// workloads of a subset that has several.
	Delete []workload
}

// quotas turns the topology into the division's input; full marks the subsets that
// Adaptive scheduling found full, with the replicas they still have room for.
func quotas(ud *v1beta1.UnitedDeployment, full map[string]int32) []uniteddeployment.Quota {
	out := make([]uniteddeployment.Quota, 0, len(ud.Spec.Topology.Subsets))
	for _, s := range ud.Spec.Topology.Subsets {
		q := uniteddeployment.Quota{Name: s.Name, Replicas: s.Replicas, MinReplicas: s.MinReplicas, MaxReplicas: s.MaxReplicas}
		if room, ok := full[s.Name]; ok {
			q.Full, q.Room = true, room
		}
		out = append(out, q)
	}
	return out
}

// Compute decides the subsets' replicas and which workloads to create and delete:
// one workload per subset in the topology (the oldest when there are several, by
// creation time then name), none for a subset not in it.
func Compute(ud *v1beta1.UnitedDeployment, existing []workload, full map[string]int32) (Plan, error) {
	var total int32
	if ud.Spec.Replicas != nil {
		total = *ud.Spec.Replicas
	}
	shares, err := uniteddeployment.Divide(total, quotas(ud, full))
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Replicas: map[string]int32{}, Keep: map[string]workload{}}
	for i, s := range ud.Spec.Topology.Subsets {
		p.Replicas[s.Name] = shares[i]
	}
	sorted := append([]workload(nil), existing...)
	sort.SliceStable(sorted, func(i, j int) bool {
		ti, tj := sorted[i].obj.GetCreationTimestamp(), sorted[j].obj.GetCreationTimestamp()
		if !ti.Equal(&tj) {
			return ti.Before(&tj)
		}
		return sorted[i].obj.GetName() < sorted[j].obj.GetName()
	})
	for _, w := range sorted {
		_, wanted := p.Replicas[w.subset]
		if _, kept := p.Keep[w.subset]; !wanted || kept {
			p.Delete = append(p.Delete, w)
			continue
		}
		p.Keep[w.subset] = w
	}
	for _, s := range ud.Spec.Topology.Subsets {
		if _, ok := p.Keep[s.Name]; !ok {
			p.Create = append(p.Create, s.Name)
		}
	}
	return p, nil
}

// partitionOf is a subset's partition from updateStrategy.manualUpdate (0 when unset).
func partitionOf(ud *v1beta1.UnitedDeployment, subset string) int32 {
	if m := ud.Spec.UpdateStrategy.ManualUpdate; m != nil {
		return m.Partitions[subset]
	}
	return 0
}
