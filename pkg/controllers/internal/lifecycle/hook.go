package lifecycle

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// HookHolds reports whether the pod carries ANY of the hook's labels (key and value)
// or finalizers. PreDelete and InPlaceUpdate hooks hold the pod (in PreparingDelete,
// PreparingUpdate) while this is true: the hook's owner removes them all when its work
// is done. A nil hook holds nothing. (OpenKruise: IsPodHooked.)
func HookHolds(hook *pub.LifecycleHook, pod *corev1.Pod) bool {
	if hook == nil {
		return false
	}
	for k, v := range hook.LabelsHandler {
		if got, ok := pod.Labels[k]; ok && got == v {
			return true
		}
	}
	for _, f := range hook.FinalizersHandler {
		if hasFinalizer(pod, f) {
			return true
		}
	}
	return false
}

// IsHookSatisfied reports whether the pod carries ALL of the hook's labels and
// finalizers. A PreNormal hook lets a pod become Normal once this is true, and an
// InPlaceUpdate hook lets an Updated pod become Normal again: there the owner ADDS them
// when the pod may serve. A nil hook, or one with no labels nor finalizers, is
// satisfied. (OpenKruise: IsPodAllHooked.)
func IsHookSatisfied(hook *pub.LifecycleHook, pod *corev1.Pod) bool {
	if hook == nil {
		return true
	}
	for k, v := range hook.LabelsHandler {
		if got, ok := pod.Labels[k]; !ok || got != v {
			return false
		}
	}
	for _, f := range hook.FinalizersHandler {
		if !hasFinalizer(pod, f) {
			return false
		}
	}
	return true
}

func hasFinalizer(pod *corev1.Pod, f string) bool {
	for _, have := range pod.Finalizers {
		if have == f {
			return true
		}
	}
	return false
}

// addHandlers puts the hook's labels and finalizers on pod; it reports a change.
func addHandlers(pod *corev1.Pod, hook *pub.LifecycleHook) (changed bool) {
	if hook == nil {
		return false
	}
	for k, v := range hook.LabelsHandler {
		if got, ok := pod.Labels[k]; ok && got == v {
			continue
		}
		if pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		pod.Labels[k] = v
		changed = true
	}
	for _, f := range hook.FinalizersHandler {
		if !hasFinalizer(pod, f) {
			pod.Finalizers = append(pod.Finalizers, f)
			changed = true
		}
	}
	return changed
}
