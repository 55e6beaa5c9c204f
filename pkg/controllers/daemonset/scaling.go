package daemonset

// partitionedCreates is scaleStrategy.partitionedScaling (OpenKruise v1.1's
// progressive creation; v1alpha1's daemonset.kruise.io/progressive-create-pod
// annotation): pods are created, at the update revision, only while fewer than
// desired - partition nodes run an updated pod, so that a partition also holds back
// the nodes that have no pod yet (a new node, or a first rollout of a set) instead of
// handing them the new revision at once. The partition is taken within [0, desired];
// the nodes kept are the first by name (creates comes sorted by name).
//
// Without partitionedScaling every node that needs a pod gets one, as in kube.
func partitionedCreates(creates []string, partitioned bool, desired, updated, partition int) []string {
	if !partitioned {
		return creates
	}
	partition = min(max(partition, 0), desired)
	n := min(max(desired-updated-partition, 0), len(creates))
	return creates[:n]
}

// partitionCounts counts, for partitionedCreates, the nodes that should run a pod and
// those of them running an updated pod.
func partitionCounts(nodes []Node) (desired, updated int) {
	for _, n := range nodes {
		if !n.ShouldRun {
			continue
		}
		desired++
		for _, pod := range n.Pods {
			if pod.Updated && pod.running() {
				updated++
				break
			}
		}
	}
	return desired, updated
}
