package lifecycle

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// State returns the pod's lifecycle state label, "" when the pod has none (a pod from
// before lifecycle support; the decisions treat it as Normal and never label it).
func State(pod *corev1.Pod) pub.LifecycleStateType {
	return pub.LifecycleStateType(pod.Labels[pub.LifecycleStateKey])
}

// InitialState is the state a new pod starts in: PreparingNormal when lc has a
// preNormal hook, Normal otherwise.
func InitialState(lc *pub.Lifecycle) pub.LifecycleStateType {
	if lc != nil && lc.PreNormal != nil {
		return pub.LifecycleStatePreparingNormal
	}
	return pub.LifecycleStateNormal
}

// SetInitialState labels a pod being created with InitialState(lc) and stamps the
// timestamp annotation. It rides on the create, so it costs no write; a pod of a
// workload without hooks is created Normal and never relabelled.
func SetInitialState(pod *corev1.Pod, lc *pub.Lifecycle, now metav1.Time) {
	SetState(pod, InitialState(lc), now)
}

// SetState sets the state label on pod (in place) and, when the label changes, the
// timestamp annotation; it reports whether the pod changed. Use it to fold a Step
// that rides on another write (Updating on the in-place update patch).
func SetState(pod *corev1.Pod, state pub.LifecycleStateType, now metav1.Time) (changed bool) {
	if v, ok := pod.Labels[pub.LifecycleStateKey]; ok && v == string(state) {
		return false
	}
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Labels[pub.LifecycleStateKey] = string(state)
	pod.Annotations[pub.LifecycleTimestampKey] = now.UTC().Format(time.RFC3339)
	return true
}

// NeedsReadinessGate reports whether a hook of lc marks pods not ready (preDelete or
// inPlaceUpdate with markPodNotReady), which needs the KruisePodReady readiness gate.
func NeedsReadinessGate(lc *pub.Lifecycle) bool {
	return lc != nil && (marks(lc.PreDelete) || marks(lc.InPlaceUpdate))
}

// InjectReadinessGate adds the KruisePodReady readiness gate to a pod being created
// when NeedsReadinessGate(lc), once. Its condition must then be set True after
// creation (inplaceupdate.InitialConditions does, in the pod's first status write).
// Pods without the gate are never marked not ready: the condition would change nothing.
func InjectReadinessGate(pod *corev1.Pod, lc *pub.Lifecycle) {
	if !NeedsReadinessGate(lc) || hasReadinessGate(pod) {
		return
	}
	pod.Spec.ReadinessGates = append(pod.Spec.ReadinessGates, corev1.PodReadinessGate{ConditionType: kruisePodReady})
}

func marks(h *pub.LifecycleHook) bool { return h != nil && h.MarkPodNotReady }
