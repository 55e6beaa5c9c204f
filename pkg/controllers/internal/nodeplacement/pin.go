package nodeplacement

import (
	corev1 "k8s.io/api/core/v1"
)

// nodeNameField is the node field a pinned pod's required affinity names its node by.
const nodeNameField = "metadata.name"

// PinnedAffinity replaces the required node affinity by one term naming the node: the
// template's own terms were already checked against that node (NodeEligibility), and
// the scheduler must not pick another. Preferred terms and pod (anti-)affinity stay.
func PinnedAffinity(a *corev1.Affinity, node string) *corev1.Affinity {
	out := a.DeepCopy()
	if out == nil {
		out = &corev1.Affinity{}
	}
	if out.NodeAffinity == nil {
		out.NodeAffinity = &corev1.NodeAffinity{}
	}
	out.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{
			Key: nodeNameField, Operator: corev1.NodeSelectorOpIn, Values: []string{node},
		}}}},
	}
	return out
}

// NodeOf is the node a pinned pod belongs to: where it is bound, or, before the
// scheduler has bound it, the node its affinity pins it to ("" when neither).
func NodeOf(pod *corev1.Pod) string {
	if pod.Spec.NodeName != "" {
		return pod.Spec.NodeName
	}
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, r := range term.MatchFields {
			if r.Key == nodeNameField && r.Operator == corev1.NodeSelectorOpIn && len(r.Values) == 1 {
				return r.Values[0]
			}
		}
	}
	return ""
}
