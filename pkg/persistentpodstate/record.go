package persistentpodstate

import (
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/sets"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// Target is what recording needs of the workload a PersistentPodState names.
type Target struct {
	// Gone: the workload does not exist or is being deleted; every record goes.
	Gone bool
	// Desired reports whether the workload still asks for the pod of that name (its
	// ordinal is within replicas, past reserved ordinals): under WhenScaled, the records
	// of pods it no longer asks for go once the pod is gone.
	Desired func(podName string) bool
}

// Record computes the status of pps from the workload's pods (those it controls) and
// the labels of nodes (nodeLabels, false for a node not found): a ready, scheduled pod
// has its node's values of the spec's topology keys and its own values of the spec's
// annotations recorded, replacing its earlier record; a pod that is not ready keeps
// its record (it is the one a recreated pod returns to). Records of pods the workload
// scaled away are dropped unless the retention policy is WhenDeleted; all records are
// dropped when the workload is gone.
func Record(pps *appsv1beta1.PersistentPodState, target Target, pods []*corev1.Pod,
	nodeLabels func(node string) (map[string]string, bool)) appsv1beta1.PersistentPodStateStatus {
	out := appsv1beta1.PersistentPodStateStatus{ObservedGeneration: pps.Generation}
	if target.Gone {
		return out
	}
	states := make(map[string]appsv1beta1.PodState, len(pps.Status.PodStates))
	for name, st := range pps.Status.PodStates {
		states[name] = *st.DeepCopy()
	}
	keys := TopologyKeys(&pps.Spec)
	present := sets.New[string]()
	for _, pod := range pods {
		present.Insert(pod.Name)
		if pod.Spec.NodeName == "" || pod.DeletionTimestamp != nil || !podutil.IsPodReady(pod) {
			continue
		}
		labels, ok := nodeLabels(pod.Spec.NodeName)
		if !ok {
			continue
		}
		st := appsv1beta1.PodState{NodeName: pod.Spec.NodeName}
		for _, k := range keys {
			if v, ok := labels[k]; ok {
				if st.NodeTopologyLabels == nil {
					st.NodeTopologyLabels = map[string]string{}
				}
				st.NodeTopologyLabels[k] = v
			}
		}
		for _, a := range pps.Spec.PersistentPodAnnotations {
			if v, ok := pod.Annotations[a.Key]; ok {
				if st.Annotations == nil {
					st.Annotations = map[string]string{}
				}
				st.Annotations[a.Key] = v
			}
		}
		states[pod.Name] = st
	}
	if pps.Spec.PersistentPodStateRetentionPolicy != appsv1beta1.PersistentPodStateRetentionPolicyWhenDeleted {
		for name := range states {
			if !present.Has(name) && (target.Desired == nil || !target.Desired(name)) {
				delete(states, name)
			}
		}
	}
	if len(states) > 0 {
		out.PodStates = states
	}
	return out
}

// TopologyKeys are the node label keys the spec names, required first, each once.
func TopologyKeys(spec *appsv1beta1.PersistentPodStateSpec) []string {
	var keys []string
	seen := sets.New[string]()
	add := func(ks []string) {
		for _, k := range ks {
			if !seen.Has(k) {
				seen.Insert(k)
				keys = append(keys, k)
			}
		}
	}
	if spec.RequiredPersistentTopology != nil {
		add(spec.RequiredPersistentTopology.Keys)
	}
	for _, t := range spec.PreferredPersistentTopology {
		add(t.Preference.Keys)
	}
	return keys
}

// StatusEqual reports whether two statuses say the same (nil and empty maps alike).
func StatusEqual(a, b appsv1beta1.PersistentPodStateStatus) bool {
	return apiequality.Semantic.DeepEqual(a, b) ||
		(a.ObservedGeneration == b.ObservedGeneration && len(a.PodStates) == 0 && len(b.PodStates) == 0)
}
