package persistentpodstate

import (
	corev1 "k8s.io/api/core/v1"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// InjectedAnnotation on a pod names the PersistentPodState whose record gave it node
// affinity (OpenKruise's key).
const InjectedAnnotation = "kruise.io/injected-persistent-pod-state"

// Affinity is the node affinity a pod recorded in state gets back: one requirement per
// required key the record has a value for (all must hold), and one preferred term per
// preferred topology term with the recorded values of its keys. A key the node did not
// carry when the pod was recorded adds nothing; a preferred term left with no
// requirement is dropped (it would prefer every node).
func Affinity(spec *appsv1beta1.PersistentPodStateSpec, state appsv1beta1.PodState) (
	required []corev1.NodeSelectorRequirement, preferred []corev1.PreferredSchedulingTerm) {
	requirements := func(keys []string) []corev1.NodeSelectorRequirement {
		var out []corev1.NodeSelectorRequirement
		for _, k := range keys {
			if v, ok := state.NodeTopologyLabels[k]; ok {
				out = append(out, corev1.NodeSelectorRequirement{Key: k, Operator: corev1.NodeSelectorOpIn, Values: []string{v}})
			}
		}
		return out
	}
	if t := spec.RequiredPersistentTopology; t != nil {
		required = requirements(t.Keys)
	}
	for _, t := range spec.PreferredPersistentTopology {
		if r := requirements(t.Preference.Keys); len(r) > 0 {
			preferred = append(preferred, corev1.PreferredSchedulingTerm{Weight: t.Weight,
				Preference: corev1.NodeSelectorTerm{MatchExpressions: r}})
		}
	}
	return required, preferred
}

// Inject gives pod (changed in place) the affinity of its record in pps and the
// InjectedAnnotation, and reports whether it changed anything: the required
// requirements are ANDed into every required term the pod has (terms are ORed, so each
// alternative stays within the recorded topology) or make its only term; the preferred
// terms are appended. A pod without a record, or whose record yields no affinity, is
// left alone (its first creation).
func Inject(pod *corev1.Pod, pps *appsv1beta1.PersistentPodState) bool {
	state, ok := pps.Status.PodStates[pod.Name]
	if !ok {
		return false
	}
	required, preferred := Affinity(&pps.Spec, state)
	if len(required) == 0 && len(preferred) == 0 {
		return false
	}
	if pod.Spec.Affinity == nil {
		pod.Spec.Affinity = &corev1.Affinity{}
	}
	if pod.Spec.Affinity.NodeAffinity == nil {
		pod.Spec.Affinity.NodeAffinity = &corev1.NodeAffinity{}
	}
	na := pod.Spec.Affinity.NodeAffinity
	if len(required) > 0 {
		sel := na.RequiredDuringSchedulingIgnoredDuringExecution
		if sel == nil || len(sel.NodeSelectorTerms) == 0 {
			na.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: required}}}
		} else {
			for i := range sel.NodeSelectorTerms {
				t := &sel.NodeSelectorTerms[i]
				t.MatchExpressions = append(t.MatchExpressions, deepCopy(required)...)
			}
		}
	}
	na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution, preferred...)
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations[InjectedAnnotation] = pps.Name
	return true
}

func deepCopy(in []corev1.NodeSelectorRequirement) []corev1.NodeSelectorRequirement {
	out := make([]corev1.NodeSelectorRequirement, len(in))
	for i := range in {
		in[i].DeepCopyInto(&out[i])
	}
	return out
}
