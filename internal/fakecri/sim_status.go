package fakecri

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"
)

// desiredStatus is a container's status with what the runtime knows put in: the
// current container's ID and restart count, its state when the simulator (re)started
// or stopped it, and the container it replaced as lastState. What kwok wrote and the
// runtime has no say on (image, imageID, kwok's startedAt of a container that has run
// since kwok started the pod) stays.
func desiredStatus(cs *corev1.ContainerStatus, cur, prev *Container) corev1.ContainerStatus {
	out := *cs.DeepCopy()
	id := ContainerIDPrefix + cur.ID
	replaced := cs.ContainerID != "" && cs.ContainerID != id
	out.ContainerID = id
	out.RestartCount = restartCountOf(cur)
	switch cur.State {
	case runtimeapi.ContainerState_CONTAINER_RUNNING:
		if replaced || cs.State.Running == nil {
			out.State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(cur.StartedAt)}}
		}
		out.Ready, out.Started = true, ptr.To(true)
	case runtimeapi.ContainerState_CONTAINER_EXITED:
		out.State = corev1.ContainerState{Terminated: terminatedState(cur)}
		out.Ready, out.Started = false, ptr.To(false)
	default:
		out.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}
		out.Ready, out.Started = false, ptr.To(false)
	}
	if prev != nil && prev.State == runtimeapi.ContainerState_CONTAINER_EXITED {
		out.LastTerminationState = corev1.ContainerState{Terminated: terminatedState(prev)}
	}
	return out
}

func terminatedState(c *Container) *corev1.ContainerStateTerminated {
	return &corev1.ContainerStateTerminated{
		ExitCode:    c.ExitCode,
		Reason:      c.Reason,
		Message:     c.Message,
		StartedAt:   metav1.NewTime(c.StartedAt),
		FinishedAt:  metav1.NewTime(c.FinishedAt),
		ContainerID: ContainerIDPrefix + c.ID,
	}
}

// needsWrite compares what the simulator is responsible for, not timestamps (the API
// keeps them to the second, so they would never compare equal).
func needsWrite(have, want *corev1.ContainerStatus) bool {
	return have.ContainerID != want.ContainerID ||
		have.RestartCount != want.RestartCount ||
		have.Ready != want.Ready ||
		stateKind(have.State) != stateKind(want.State) ||
		terminatedID(have.LastTerminationState) != terminatedID(want.LastTerminationState)
}

func stateKind(s corev1.ContainerState) string {
	switch {
	case s.Running != nil:
		return "running"
	case s.Terminated != nil:
		return "terminated"
	case s.Waiting != nil:
		return "waiting"
	}
	return ""
}

func terminatedID(s corev1.ContainerState) string {
	if s.Terminated == nil {
		return ""
	}
	return s.Terminated.ContainerID
}

// writeContainerStatuses writes the pod's whole containerStatuses list (it is an atomic
// list: a patch replaces it whole, as kwok's own status patches do) in one merge patch
// of the status subresource. The patch carries the resourceVersion it was computed
// from, so it never overwrites a newer status (a kwok stage that ran meanwhile): it
// fails with a conflict and the sync runs again on the newer pod.
func (k *KubeletSim) writeContainerStatuses(ctx context.Context, pod *corev1.Pod, statuses []corev1.ContainerStatus) error {
	patch := map[string]interface{}{
		"metadata": map[string]interface{}{"resourceVersion": pod.ResourceVersion},
		"status":   map[string]interface{}{"containerStatuses": statuses},
	}
	data, err := json.Marshal(patch)
	if err != nil {
		return fmt.Errorf("marshal status patch: %w", err)
	}
	if _, err := k.client.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.MergePatchType, data, metav1.PatchOptions{}, "status"); err != nil {
		return fmt.Errorf("patch status of pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	klog.FromContext(ctx).V(2).Info("Wrote container statuses", "resourceVersion", pod.ResourceVersion)
	return nil
}
