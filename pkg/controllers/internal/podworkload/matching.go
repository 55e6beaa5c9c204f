package podworkload

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// MatchingKeys returns the keys of the workloads whose selector matches pod, for
// PodHandler: the workloads that may adopt it. A workload with no or an empty selector
// matches nothing.
func MatchingKeys[T Object](workloads []T, selector func(T) *metav1.LabelSelector, pod *corev1.Pod) []string {
	var keys []string
	for _, w := range workloads {
		sel, err := metav1.LabelSelectorAsSelector(selector(w))
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		keys = append(keys, key(w))
	}
	return keys
}
