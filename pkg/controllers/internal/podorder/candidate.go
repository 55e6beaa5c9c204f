package podorder

import (
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// Candidate is what the sorts need to know about a pod.
type Candidate struct {
	Name   string
	Labels map[string]string
	// Available: the pod counts as available for the workload (ready for
	// minReadySeconds, plus whatever else the workload requires).
	Available bool
	// Ready: the pod's Ready condition is True; ReadyTime is when it last became True.
	Ready     bool
	ReadyTime time.Time
	Phase     corev1.PodPhase
	// Node is spec.nodeName; empty while the pod is not scheduled.
	Node string
	// Restarts is the highest restart count of the pod's regular containers,
	// SidecarRestarts that of its sidecar (restartable init) containers.
	Restarts        int32
	SidecarRestarts int32
	CreationTime    time.Time
	// DeletionCost is the controller.kubernetes.io/pod-deletion-cost annotation
	// (0 when absent or invalid); lower is deleted first.
	DeletionCost int32
	// Priority is the pod's update priority under the workload's strategy (see
	// Priority): higher is updated first and deleted last.
	Priority int64
	// PreparingUpdate: the pod's lifecycle state is PreparingUpdate, so its update
	// hook already runs; it is updated before any other so that no hook is left half done.
	PreparingUpdate bool
	// PreparingDelete: the pod's lifecycle state is PreparingDelete, so a preDelete hook
	// already holds it; it is deleted before any other, so that a held scale-down never
	// picks a second victim.
	PreparingDelete bool
}

// CandidateFromPod fills a Candidate from pod; available is the workload's verdict and
// priority its compiled update priority strategy (PriorityFor).
func CandidateFromPod(pod *corev1.Pod, available bool, priority PriorityFunc) Candidate {
	c := Candidate{
		Name:            pod.Name,
		Labels:          pod.Labels,
		Available:       available,
		Phase:           pod.Status.Phase,
		Node:            pod.Spec.NodeName,
		CreationTime:    pod.CreationTimestamp.Time,
		DeletionCost:    DeletionCost(pod.Annotations),
		Priority:        priority(pod.Labels),
		PreparingUpdate: pod.Labels[pub.LifecycleStateKey] == string(pub.LifecycleStatePreparingUpdate),
		PreparingDelete: pod.Labels[pub.LifecycleStateKey] == string(pub.LifecycleStatePreparingDelete),
	}
	for i := range pod.Status.Conditions {
		cond := &pod.Status.Conditions[i]
		if cond.Type == corev1.PodReady && cond.Status == corev1.ConditionTrue {
			c.Ready, c.ReadyTime = true, cond.LastTransitionTime.Time
		}
	}
	for _, s := range pod.Status.ContainerStatuses {
		c.Restarts = max(c.Restarts, s.RestartCount)
	}
	sidecars := map[string]bool{}
	for _, ic := range pod.Spec.InitContainers {
		if ic.RestartPolicy != nil && *ic.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			sidecars[ic.Name] = true
		}
	}
	for _, s := range pod.Status.InitContainerStatuses {
		if sidecars[s.Name] {
			c.SidecarRestarts = max(c.SidecarRestarts, s.RestartCount)
		}
	}
	return c
}

// DeletionCost reads the controller.kubernetes.io/pod-deletion-cost annotation as the
// ReplicaSet controller does: a decimal int32 starting with '-' or 1-9 (or "0"), else 0.
func DeletionCost(annotations map[string]string) int32 {
	v, ok := annotations[corev1.PodDeletionCost]
	if !ok || v == "" || !(v[0] == '-' || v == "0" || (v[0] >= '1' && v[0] <= '9')) {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}
