package lifecycle

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

const (
	kruisePodReady = corev1.PodConditionType(pub.KruisePodReadyConditionType)

	// Lifecycle hooks hold KruisePodReady under OpenKruise's user agent and keys
	// (podcondition.EditNotReadyHolders); other holders' entries are kept.
	userAgent        = "Lifecycle"
	preDeleteHookKey = "preDeleteHook"
	preUpdateHookKey = "preUpdateHook"
)

func hasReadinessGate(pod *corev1.Pod) bool { return podcondition.HasKruisePodReadyGate(pod) }

// readinessFor sets KruisePodReady for a pod entering state to: PreparingDelete and
// PreparingUpdate add their key when mark is set; Updated drops the update key, Normal
// and PreparingNormal drop both (whatever mark says, so a hook whose markPodNotReady
// was turned off meanwhile does not leave the pod unready). Pods without the gate are
// left alone. It reports whether the status changed.
func readinessFor(pod *corev1.Pod, to pub.LifecycleStateType, mark bool, now metav1.Time) bool {
	if !hasReadinessGate(pod) {
		return false
	}
	switch to {
	case pub.LifecycleStatePreparingDelete:
		if mark {
			return editHolders(pod, preDeleteHookKey, nil, now)
		}
	case pub.LifecycleStatePreparingUpdate:
		if mark {
			return editHolders(pod, preUpdateHookKey, nil, now)
		}
	case pub.LifecycleStateUpdated:
		return editHolders(pod, "", []string{preUpdateHookKey}, now)
	case pub.LifecycleStateNormal, pub.LifecycleStatePreparingNormal:
		return editHolders(pod, "", []string{preDeleteHookKey, preUpdateHookKey}, now)
	}
	return false
}

// editHolders edits the lifecycle's holders of KruisePodReady (see podcondition).
func editHolders(pod *corev1.Pod, add string, remove []string, now metav1.Time) bool {
	return podcondition.EditNotReadyHolders(pod, userAgent, add, remove, now)
}
