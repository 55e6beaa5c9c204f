package sidecarterminator

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/podutil"
)

// Action is what the terminator does for one pod; the zero Action does nothing.
type Action struct {
	// End is set when the pod is to be ended: Phase and the SidecarTerminated
	// condition written to its status.
	End bool
	// Phase is Succeeded when every main container exited 0, Failed otherwise: the
	// sidecars' exit codes (a SIGTERM'd sidecar's 143) never decide it.
	Phase corev1.PodPhase
	// Sidecars are the marked containers still not terminated, which the kubelet stops
	// once the pod is terminal.
	Sidecars []string
}

// Decide is OpenKruise's SidecarTerminator rule for a pod. It ends a pod when:
//   - it is Running (not Pending, not terminal yet) and not being deleted;
//   - its restartPolicy is Never or OnFailure (an Always pod never finishes);
//   - some of its containers are sidecars (env KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT
//     true, case-insensitive) and at least one of them has not terminated (when all
//     have, the kubelet decides the phase by itself), and at least one is not a
//     sidecar (a main container);
//   - the pod status reports every container, and every main container has
//     terminated: under Never with any exit code, under OnFailure with exit code 0
//     (a failed one is restarted by the kubelet, so it has not finished).
//
// Native sidecars (initContainers with restartPolicy Always) are not looked at: the
// kubelet stops them itself once the regular containers have finished.
func Decide(pod *corev1.Pod) Action {
	if pod.DeletionTimestamp != nil {
		return Action{}
	}
	if pod.Status.Phase != corev1.PodRunning {
		// Pending: nothing ran yet; Succeeded/Failed: already ended.
		return Action{}
	}
	restartOnFailure := false
	switch pod.Spec.RestartPolicy {
	case corev1.RestartPolicyNever:
	case corev1.RestartPolicyOnFailure:
		restartOnFailure = true
	default:
		return Action{}
	}
	if len(pod.Status.ContainerStatuses) != len(pod.Spec.Containers) {
		return Action{}
	}
	var running []string
	mains, succeeded := 0, true
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		st := podutil.ContainerStatus(pod, c.Name)
		if st == nil {
			return Action{}
		}
		if IsSidecar(c) {
			if st.State.Terminated == nil {
				running = append(running, c.Name)
			}
			continue
		}
		mains++
		term := st.State.Terminated
		if term == nil || (restartOnFailure && term.ExitCode != 0) {
			return Action{}
		}
		succeeded = succeeded && term.ExitCode == 0
	}
	if mains == 0 || len(running) == 0 {
		return Action{}
	}
	phase := corev1.PodSucceeded
	if !succeeded {
		phase = corev1.PodFailed
	}
	return Action{End: true, Phase: phase, Sidecars: running}
}

// IsSidecar reports whether a container is marked to be stopped when the pod's main
// containers finish.
func IsSidecar(c *corev1.Container) bool {
	for _, e := range c.Env {
		if e.Name == v1alpha1.KruiseTerminateSidecarEnv && strings.EqualFold(e.Value, "true") {
			return true
		}
	}
	return false
}
