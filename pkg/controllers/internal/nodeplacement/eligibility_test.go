package nodeplacement

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
)

func TestNodeEligibility(t *testing.T) {
	node := func(labels map[string]string, taints ...corev1.Taint) *corev1.Node {
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node1", Labels: labels}, Spec: corev1.NodeSpec{Taints: taints}}
	}
	taint := func(key string, effect corev1.TaintEffect) corev1.Taint {
		return corev1.Taint{Key: key, Effect: effect}
	}
	ssd := map[string]string{"disk": "ssd"}
	affinity := &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "disk", Operator: corev1.NodeSelectorOpIn, Values: []string{"ssd"}}}}},
	}}}
	run, stay, none := Eligibility{ShouldRun: true, ShouldContinueRunning: true}, Eligibility{ShouldContinueRunning: true}, Eligibility{}
	cases := []struct {
		name string
		node *corev1.Node
		spec corev1.PodSpec
		want Eligibility
	}{
		{"any node", node(nil), corev1.PodSpec{}, run},
		{"node selector matches", node(ssd), corev1.PodSpec{NodeSelector: ssd}, run},
		{"node selector does not match", node(nil), corev1.PodSpec{NodeSelector: ssd}, none},
		{"required affinity matches", node(ssd), corev1.PodSpec{Affinity: affinity}, run},
		{"required affinity does not match", node(nil), corev1.PodSpec{Affinity: affinity}, none},
		{"nodeName names another node", node(nil), corev1.PodSpec{NodeName: "node2"}, none},
		{"untolerated NoSchedule: no new pod, the old one stays", node(nil, taint("dedicated", corev1.TaintEffectNoSchedule)), corev1.PodSpec{}, stay},
		{"untolerated NoExecute: the pod goes", node(nil, taint("dedicated", corev1.TaintEffectNoExecute)), corev1.PodSpec{}, none},
		{"PreferNoSchedule is ignored", node(nil, taint("dedicated", corev1.TaintEffectPreferNoSchedule)), corev1.PodSpec{}, run},
		{"tolerated taint", node(nil, taint("dedicated", corev1.TaintEffectNoExecute)),
			corev1.PodSpec{Tolerations: []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpExists}}}, run},
		{"cordoned: the unschedulable taint is tolerated", node(nil, taint(corev1.TaintNodeUnschedulable, corev1.TaintEffectNoSchedule)), corev1.PodSpec{}, run},
		{"not ready: tolerated", node(nil, taint(corev1.TaintNodeNotReady, corev1.TaintEffectNoExecute)), corev1.PodSpec{}, run},
		{"network unavailable: tolerated by host-network pods only", node(nil, taint(corev1.TaintNodeNetworkUnavailable, corev1.TaintEffectNoSchedule)), corev1.PodSpec{}, stay},
		{"network unavailable, host network", node(nil, taint(corev1.TaintNodeNetworkUnavailable, corev1.TaintEffectNoSchedule)), corev1.PodSpec{HostNetwork: true}, run},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := NodeEligibility(klog.Background(), tc.node, &tc.spec); got != tc.want {
				t.Errorf("NodeEligibility = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestPinnedPod(t *testing.T) {
	affinity := &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "disk", Operator: corev1.NodeSelectorOpExists}}}}},
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 1}},
	}}
	pod := &corev1.Pod{Spec: corev1.PodSpec{Affinity: PinnedAffinity(affinity, "node1")}}
	if got := NodeOf(pod); got != "node1" {
		t.Errorf("NodeOf(pinned pod) = %q", got)
	}
	if len(pod.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) != 1 {
		t.Error("preferred terms dropped")
	}
	if len(affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields) != 0 {
		t.Error("the template's affinity was modified")
	}
	pod.Spec.NodeName = "node2"
	if got := NodeOf(pod); got != "node2" {
		t.Errorf("NodeOf(bound pod) = %q, want where it is bound", got)
	}
	if got := NodeOf(&corev1.Pod{}); got != "" {
		t.Errorf("NodeOf(unpinned) = %q", got)
	}
	tolerations := WithDaemonTolerations(&corev1.PodSpec{Tolerations: []corev1.Toleration{daemonTolerations[0]}})
	if len(tolerations) != len(daemonTolerations) {
		t.Errorf("tolerations %v: want each daemon toleration once", tolerations)
	}
}
