package lifecycle

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// Step is one lifecycle state change a decision asks for.
type Step struct {
	// To is the state to move the pod to.
	To pub.LifecycleStateType
	// MarkNotReady: the hook asks for KruisePodReady=False while it holds the pod
	// (used entering PreparingDelete and PreparingUpdate).
	MarkNotReady bool
	// Rehook: put these hook labels and finalizers back on the pod, so that its owner
	// sees the hook hold again and runs it (an Updated pod that must update again).
	Rehook *pub.LifecycleHook
}

// Apply returns a modified copy of pod with the step taken: the state label and
// timestamp annotation, the Rehook labels and finalizers, and KruisePodReady (see
// Transition). newPod is nil when the pod already is as the step wants: no write.
// Send newPod in ONE patch (podpatch.Bytes): to pods/status when needsStatusWrite, else to
// the pod.
func (s Step) Apply(pod *corev1.Pod, now metav1.Time) (newPod *corev1.Pod, needsStatusWrite bool) {
	newPod = pod.DeepCopy()
	changed := SetState(newPod, s.To, now)
	changed = addHandlers(newPod, s.Rehook) || changed
	statusChanged := readinessFor(newPod, s.To, s.MarkNotReady, now)
	if !changed && !statusChanged {
		return nil, false
	}
	return newPod, statusChanged
}

// Transition returns a modified copy of pod in state to, with the timestamp
// annotation, or nil when the pod already is there (no write). If the pod carries the
// KruisePodReady readiness gate, the condition changes with the state: entering
// PreparingDelete or PreparingUpdate with markNotReady adds that hook as a holder
// (condition False, and Ready False as the kubelet would set it, so endpoints drop the
// pod with this very write); entering Updated drops the update hook, entering Normal
// or PreparingNormal drops both (condition True when no holder is left).
//
// needsStatusWrite reports a condition change: conditions live in status, so the
// caller must send newPod to pods/status, in ONE patch that also carries the label and
// annotation (the pod status endpoint accepts metadata changes). Otherwise a patch of
// the pod's metadata suffices.
func Transition(pod *corev1.Pod, to pub.LifecycleStateType, markNotReady bool, now metav1.Time) (newPod *corev1.Pod, needsStatusWrite bool) {
	return Step{To: to, MarkNotReady: markNotReady}.Apply(pod, now)
}
