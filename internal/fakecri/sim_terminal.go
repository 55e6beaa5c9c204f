package fakecri

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"
)

// reportStopped plays the kubelet for a pod the API shows Succeeded or Failed while
// some of its containers are not reported terminated: it stops those containers (the
// runtime's stop behaviour gives the exit code) and writes them terminated, in one
// status write, before the caller removes the sandbox. A container the runtime does
// not have is reported as the kubelet does, exit code 137, ContainerStatusUnknown.
// The phase is left alone: a terminal phase never changes.
func (k *KubeletSim) reportStopped(ctx context.Context, key string, pod *corev1.Pod, containers []Container) error {
	statuses := make([]corev1.ContainerStatus, len(pod.Status.ContainerStatuses))
	changed := false
	for i := range pod.Status.ContainerStatuses {
		st := pod.Status.ContainerStatuses[i].DeepCopy()
		if st.State.Terminated == nil {
			term, err := k.stopCurrent(ctx, pod, st.Name, containers)
			if err != nil {
				return fmt.Errorf("container %s: %w", st.Name, err)
			}
			st.State = corev1.ContainerState{Terminated: term}
			st.Ready, st.Started = false, ptr.To(false)
			if term.ContainerID != "" {
				st.ContainerID = term.ContainerID
			}
			changed = true
		}
		statuses[i] = *st
	}
	if !changed {
		return nil
	}
	if err := k.writeContainerStatuses(ctx, pod, statuses); err != nil {
		return err
	}
	k.recordWrite(key, pod.ResourceVersion)
	klog.FromContext(ctx).V(2).Info("Stopped the containers of a terminal pod", "phase", pod.Status.Phase)
	return nil
}

// stopCurrent stops the newest container of the pod named name, if it runs, and
// returns its terminated state.
func (k *KubeletSim) stopCurrent(ctx context.Context, pod *corev1.Pod, name string, containers []Container) (*corev1.ContainerStateTerminated, error) {
	var cur *Container
	for i := range containers {
		c := &containers[i]
		if c.Labels[LabelContainerName] != name || c.Labels[LabelPodUID] != string(pod.UID) {
			continue
		}
		if cur == nil || c.Attempt > cur.Attempt {
			cur = c
		}
	}
	if cur == nil {
		return &corev1.ContainerStateTerminated{ExitCode: exitCodeKilled, Reason: "ContainerStatusUnknown",
			Message: "The container could not be located when the pod was terminated"}, nil
	}
	if cur.State == runtimeapi.ContainerState_CONTAINER_RUNNING {
		if _, err := k.runtime.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: cur.ID, Timeout: terminationGrace(pod)}); err != nil {
			return nil, fmt.Errorf("stop container %s: %w", cur.ID, err)
		}
	}
	c, ok := k.runtime.Container(cur.ID)
	if !ok || c.State != runtimeapi.ContainerState_CONTAINER_EXITED {
		return &corev1.ContainerStateTerminated{ExitCode: exitCodeKilled, Reason: "ContainerStatusUnknown",
			Message: "The container could not be located when the pod was terminated", ContainerID: ContainerIDPrefix + cur.ID}, nil
	}
	return terminatedState(&c), nil
}
