package workloadspread

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/utils/ptr"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// Inject places pod in subset of the spread named spread and returns the placed pod
// (pod is not modified): the subset's patch (strategic merge) applied first, then its
// required node term ANDed into every required term of the pod (or made the only
// term), its preferred terms and tolerations appended, and the annotation set.
func Inject(pod *corev1.Pod, spread string, subset *appsv1beta1.WorkloadSpreadSubset) (*corev1.Pod, error) {
	out := pod.DeepCopy()
	if len(subset.Patch.Raw) > 0 {
		cur, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("encoding the pod: %w", err)
		}
		patched, err := strategicpatch.StrategicMergePatch(cur, subset.Patch.Raw, &corev1.Pod{})
		if err != nil {
			return nil, fmt.Errorf("applying subset %s's patch: %w", subset.Name, err)
		}
		out = &corev1.Pod{}
		if err := json.Unmarshal(patched, out); err != nil {
			return nil, fmt.Errorf("decoding the patched pod: %w", err)
		}
		resetPriority(pod, out)
	}
	if subset.RequiredNodeSelectorTerm != nil || len(subset.PreferredNodeSelectorTerms) > 0 {
		if out.Spec.Affinity == nil {
			out.Spec.Affinity = &corev1.Affinity{}
		}
		if out.Spec.Affinity.NodeAffinity == nil {
			out.Spec.Affinity.NodeAffinity = &corev1.NodeAffinity{}
		}
		na := out.Spec.Affinity.NodeAffinity
		if t := subset.RequiredNodeSelectorTerm; t != nil {
			req := na.RequiredDuringSchedulingIgnoredDuringExecution
			if req == nil || len(req.NodeSelectorTerms) == 0 {
				na.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{
					NodeSelectorTerms: []corev1.NodeSelectorTerm{*t.DeepCopy()}}
			} else {
				// Terms are ORed; a requirement ANDed into each keeps every alternative
				// inside the subset.
				for i := range req.NodeSelectorTerms {
					term := &req.NodeSelectorTerms[i]
					term.MatchExpressions = append(term.MatchExpressions, t.DeepCopy().MatchExpressions...)
					term.MatchFields = append(term.MatchFields, t.DeepCopy().MatchFields...)
				}
			}
		}
		for _, p := range subset.PreferredNodeSelectorTerms {
			na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution, *p.DeepCopy())
		}
	}
	for _, t := range subset.Tolerations {
		out.Spec.Tolerations = append(out.Spec.Tolerations, *t.DeepCopy())
	}
	if out.Annotations == nil {
		out.Annotations = map[string]string{}
	}
	out.Annotations[Annotation] = Placement{Name: spread, Subset: subset.Name}.String()
	return out, nil
}

// resetPriority clears what kube's Priority admission derived from the pod's old
// priorityClassName when a subset patch names another class: it already ran on the pod
// (it comes before the webhooks) and, run again on the patched pod, refuses a
// spec.priority that differs from the new class's value (and likewise
// preemptionPolicy). Cleared, they are set again from the new class. Values the patch
// itself changed are left for kube to judge.
func resetPriority(before, after *corev1.Pod) {
	if after.Spec.PriorityClassName == before.Spec.PriorityClassName {
		return
	}
	if ptr.Equal(after.Spec.Priority, before.Spec.Priority) {
		after.Spec.Priority = nil
	}
	if ptr.Equal(after.Spec.PreemptionPolicy, before.Spec.PreemptionPolicy) {
		after.Spec.PreemptionPolicy = nil
	}
}
