package inplaceupdate

import (
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// NeedsNotReadyFirst reports whether a pod must be marked not ready before its spec is
// patched: only when the strategy asks for a grace period.
//
// With gracePeriodSeconds > 0 the sequence is OpenKruise's: InPlaceUpdateReady=False,
// wait out the grace (the UpdateSpec waits in the apps.kruise.io/inplace-update-grace
// annotation, so a controller restart resumes it), patch the spec, and at the end
// InPlaceUpdateReady=True. The False flip and the grace annotation travel in one
// pods/status write (the pod status endpoint keeps label and annotation changes; it only
// resets spec, deletionTimestamp and ownerReferences), see Executor.Update.
//
// With gracePeriodSeconds == 0 there is no False flip, unlike OpenKruise, which flips
// for every update of a pod carrying the readiness gate. The flip would cost two writes
// per pod (False before, True after: three writes instead of one, see DESIGN.md's
// performance model) and buy almost nothing: the spec patch follows it at once, so
// endpoints would learn of the update only milliseconds earlier than from the kubelet,
// which reports the container not ready as soon as it stops it for the restart (after
// running its preStop hook, as for any container restart). Users who need endpoints to
// drain before the restart set a grace period, which then buys real time.
func NeedsNotReadyFirst(strategy *pub.InPlaceUpdateStrategy) bool {
	return strategy != nil && strategy.GracePeriodSeconds > 0
}

// GetGraceSpec returns the UpdateSpec waiting out its grace period, or nil when none is.
func GetGraceSpec(pod *corev1.Pod) (*UpdateSpec, error) {
	v, ok := pod.Annotations[pub.InPlaceUpdateGraceKey]
	if !ok {
		return nil, nil
	}
	spec := &UpdateSpec{}
	if err := json.Unmarshal([]byte(v), spec); err != nil {
		return nil, fmt.Errorf("pod %s/%s: annotation %s: %w", pod.Namespace, pod.Name, pub.InPlaceUpdateGraceKey, err)
	}
	return spec, nil
}

func setGraceSpec(pod *corev1.Pod, spec *UpdateSpec) error {
	b, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	setAnnotation(pod, pub.InPlaceUpdateGraceKey, string(b))
	return nil
}

// GraceRemaining returns how long the pod's pending update still has to wait (rounded up
// to whole seconds), or 0 when nothing waits or the grace is over.
func GraceRemaining(pod *corev1.Pod, now metav1.Time) time.Duration {
	spec, err := GetGraceSpec(pod)
	if err != nil || spec == nil {
		return 0
	}
	state, err := GetState(pod)
	if err != nil || state == nil {
		return 0
	}
	left := time.Duration(spec.GraceSeconds)*time.Second - now.Sub(state.UpdateTimestamp.Time)
	if left <= 0 {
		return 0
	}
	if rem := left % time.Second; rem != 0 {
		left += time.Second - rem
	}
	return left
}
