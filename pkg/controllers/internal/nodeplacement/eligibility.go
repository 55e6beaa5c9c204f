// Package nodeplacement is the one-pod-per-node rule Advanced DaemonSet and BroadcastJob
// share: which nodes run a pod of a template (as kube's DaemonSet controller decides it),
// and how a pod is pinned to its node.
package nodeplacement

import (
	corev1 "k8s.io/api/core/v1"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"
)

// Eligibility is what kube's DaemonSet controller decides of a node for a template.
type Eligibility struct {
	// ShouldRun: the node should run a pod (it counts in desiredNumberScheduled).
	ShouldRun bool
	// ShouldContinueRunning: a pod already on the node may stay (false: delete it).
	ShouldContinueRunning bool
}

// daemonTolerations are the tolerations kube's DaemonSet controller gives every
// daemon pod, so that node conditions that keep ordinary pods away (the node not
// ready or unreachable, under pressure, cordoned) do not keep a node agent away: those
// agents are often what brings the node back. Cordoning (spec.unschedulable) thus
// never removes a daemon pod, as in kube.
var daemonTolerations = []corev1.Toleration{
	{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	{Key: corev1.TaintNodeDiskPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodeMemoryPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodePIDPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodeUnschedulable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
}

// hostNetworkToleration is added for host-network pods only: they do not need the
// node's pod network to work.
var hostNetworkToleration = corev1.Toleration{
	Key: corev1.TaintNodeNetworkUnavailable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule,
}

// WithDaemonTolerations returns spec's tolerations plus the daemon ones it lacks.
func WithDaemonTolerations(spec *corev1.PodSpec) []corev1.Toleration {
	out := append([]corev1.Toleration(nil), spec.Tolerations...)
	add := daemonTolerations
	if spec.HostNetwork {
		add = append(append([]corev1.Toleration(nil), daemonTolerations...), hostNetworkToleration)
	}
	for _, t := range add {
		if !hasToleration(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func hasToleration(list []corev1.Toleration, t corev1.Toleration) bool {
	for _, have := range list {
		if have.Key == t.Key && have.Operator == t.Operator && have.Effect == t.Effect && have.Value == t.Value {
			return true
		}
	}
	return false
}

// NodeEligibility decides, as kube's DaemonSet controller does, whether node should run
// a pod of spec (the template's spec) and whether a pod already there may stay:
//   - spec.nodeName, when set, names the only node;
//   - the node selector and required node affinity must match (else: no pod, and an
//     existing one goes);
//   - a NoSchedule or NoExecute taint the pod does not tolerate (daemon tolerations
//     included) means no new pod, and an existing one goes only for NoExecute.
//
// Node readiness is not looked at: a not-ready node keeps its pod (the daemon
// tolerations cover its taints), and the scheduler and kubelet do the rest.
func NodeEligibility(logger klog.Logger, node *corev1.Node, spec *corev1.PodSpec) Eligibility {
	if spec.NodeName != "" && spec.NodeName != node.Name {
		return Eligibility{}
	}
	pod := &corev1.Pod{Spec: corev1.PodSpec{NodeSelector: spec.NodeSelector, Affinity: spec.Affinity}}
	if fits, err := nodeaffinity.GetRequiredNodeAffinity(pod).Match(node); err != nil || !fits {
		return Eligibility{}
	}
	tolerations := WithDaemonTolerations(spec)
	_, untolerated := corev1helpers.FindMatchingUntoleratedTaint(logger, node.Spec.Taints, tolerations, func(t *corev1.Taint) bool {
		return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
	}, false)
	if !untolerated {
		return Eligibility{ShouldRun: true, ShouldContinueRunning: true}
	}
	_, evicts := corev1helpers.FindMatchingUntoleratedTaint(logger, node.Spec.Taints, tolerations, func(t *corev1.Taint) bool {
		return t.Effect == corev1.TaintEffectNoExecute
	}, false)
	return Eligibility{ShouldContinueRunning: !evicts}
}
