// Package specifieddelete reads OpenKruise's apps.kruise.io/specified-delete label: a
// user (or a tool such as kubectl kruise) labels a pod to ask its workload to delete
// it. CloneSet deletes the pod (a scale-down names it first); Advanced StatefulSet
// recreates it at the same ordinal. Both delete through the workload's preDelete hook.
package specifieddelete

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// Is reports whether the pod carries the label. Any value counts, as in OpenKruise:
// the label's presence is the request.
func Is(pod *corev1.Pod) bool {
	_, ok := pod.Labels[pub.SpecifiedDeleteKey]
	return ok
}
