package inplaceupdate

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

const (
	inPlaceUpdateReady = corev1.PodConditionType(pub.InPlaceUpdateReady)
	kruisePodReady     = corev1.PodConditionType(pub.KruisePodReadyConditionType)

	// ReasonStartInPlaceUpdate is OpenKruise's reason for InPlaceUpdateReady=False.
	ReasonStartInPlaceUpdate = "StartInPlaceUpdate"
	// reasonGatesNotReady and the message below are what the kubelet writes on the Ready
	// condition for an unready gate; writing the same leaves the kubelet nothing to change.
	reasonGatesNotReady = "ReadinessGatesNotReady"
)

// InjectReadinessGate adds the InPlaceUpdateReady readiness gate to a pod being created,
// once. The gate's condition must then be set (InitialConditions) or the pod never
// becomes Ready.
func InjectReadinessGate(pod *corev1.Pod) {
	if hasReadinessGate(pod, inPlaceUpdateReady) {
		return
	}
	pod.Spec.ReadinessGates = append(pod.Spec.ReadinessGates, corev1.PodReadinessGate{ConditionType: inPlaceUpdateReady})
}

func hasReadinessGate(pod *corev1.Pod, t corev1.PodConditionType) bool {
	for _, g := range pod.Spec.ReadinessGates {
		if g.ConditionType == t {
			return true
		}
	}
	return false
}

// InitialConditions returns the conditions a newly created pod still needs so that its
// Kruise readiness gates pass: InPlaceUpdateReady=True and KruisePodReady=True, each only
// if the pod carries that gate and has no such condition yet (a lifecycle hook may have
// set KruisePodReady=False on purpose). Append them to pod.status.conditions and send
// them in ONE pods/status write; an empty result means no write at all.
//
// InPlaceUpdateReady is on every pod that may be updated in place, so it must not cost a
// write of its own per created pod (DESIGN, "API writes per pod"). Pods cannot be created
// with status, so it comes with the pod's first status write: the node's (the local
// stack's kwok pod-ready stage sets every readiness gate's condition True along with
// Ready). Until the node has reported the pod (it has a Ready condition) it is asked for
// only when KruisePodReady needs the write anyway; after that a node that left it unset
// (a real kubelet does) gets it from this write, as OpenKruise's controller sets it.
func InitialConditions(pod *corev1.Pod, now metav1.Time) []corev1.PodCondition {
	missing := func(t corev1.PodConditionType) bool {
		return hasReadinessGate(pod, t) && podcondition.Find(pod.Status.Conditions, t) == nil
	}
	var out []corev1.PodCondition
	if missing(inPlaceUpdateReady) && (missing(kruisePodReady) || nodeReported(pod)) {
		out = append(out, corev1.PodCondition{Type: inPlaceUpdateReady, Status: corev1.ConditionTrue, LastTransitionTime: now})
	}
	if missing(kruisePodReady) {
		out = append(out, corev1.PodCondition{Type: kruisePodReady, Status: corev1.ConditionTrue, LastTransitionTime: now})
	}
	return out
}

// nodeReported: the node has written the pod's status once (it always sets Ready).
func nodeReported(pod *corev1.Pod) bool {
	return podcondition.Find(pod.Status.Conditions, corev1.PodReady) != nil
}

// SetReadyCondition sets the pod's InPlaceUpdateReady condition and reports whether the
// pod changed (no change: no write). The transition time moves only when the status
// does. Setting False also sets the pod's Ready condition False, as the kubelet would on
// its next sync, so endpoints drop the pod with this very write.
func SetReadyCondition(pod *corev1.Pod, status corev1.ConditionStatus, reason string, now metav1.Time) (changed bool) {
	changed = podcondition.Set(pod, corev1.PodCondition{Type: inPlaceUpdateReady, Status: status, Reason: reason}, now)
	if status == corev1.ConditionFalse {
		ready := corev1.PodCondition{
			Type:    corev1.PodReady,
			Status:  corev1.ConditionFalse,
			Reason:  reasonGatesNotReady,
			Message: fmt.Sprintf("the status of pod readiness gate %q is not \"True\", but False", inPlaceUpdateReady),
		}
		if c := podcondition.Find(pod.Status.Conditions, corev1.PodReady); c == nil || c.Status != corev1.ConditionFalse {
			changed = podcondition.Set(pod, ready, now) || changed
		}
	}
	return changed
}
