package podprobemarker

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

func gameMarker() *v1alpha1.PodProbeMarker {
	return &v1alpha1.PodProbeMarker{
		ObjectMeta: metav1.ObjectMeta{Name: "game-server-probe", Namespace: "ns"},
		Spec: v1alpha1.PodProbeMarkerSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "game-server"}},
			Probes: []v1alpha1.PodContainerProbe{{
				Name: "Idle", ContainerName: "game-server",
				Probe: v1alpha1.ContainerProbeSpec{Probe: corev1.Probe{ProbeHandler: corev1.ProbeHandler{
					Exec: &corev1.ExecAction{Command: []string{"/home/game/idle.sh"}}}, PeriodSeconds: 10}},
				MarkerPolicy: []v1alpha1.ProbeMarkerPolicy{
					{State: v1alpha1.ProbeSucceeded, Labels: map[string]string{"gameserver-idle": "true"},
						Annotations: map[string]string{"controller.kubernetes.io/pod-deletion-cost": "-10"}},
					{State: v1alpha1.ProbeFailed, Labels: map[string]string{"gameserver-idle": "false"},
						Annotations: map[string]string{"controller.kubernetes.io/pod-deletion-cost": "10"}},
				},
				PodConditionType: "game.io/idle",
			}},
		},
	}
}

func gamePod(name string, mutate ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name), Labels: map[string]string{"app": "game-server"}},
		Spec:       corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "game-server"}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.1"},
	}
	for _, m := range mutate {
		m(p)
	}
	return p
}

func TestNodeSpec(t *testing.T) {
	m := gameMarker()
	other := gameMarker()
	other.Name, other.Spec.Probes[0].ContainerName = "other", "sidecar"
	pods := []*corev1.Pod{
		gamePod("b"),
		gamePod("a"),
		gamePod("pending", func(p *corev1.Pod) { p.Status.Phase = corev1.PodPending }),
		gamePod("terminating", func(p *corev1.Pod) { p.DeletionTimestamp = &metav1.Time{} }),
		gamePod("unselected", func(p *corev1.Pod) { p.Labels = nil }),
		gamePod("elsewhere", func(p *corev1.Pod) { p.Namespace = "other-ns" }),
	}
	got := nodeSpec(pods, []*v1alpha1.PodProbeMarker{other, m})
	probe := v1alpha1.ContainerProbe{Name: "game-server-probe#Idle", ContainerName: "game-server", Probe: m.Spec.Probes[0].Probe}
	want := v1alpha1.NodePodProbeSpec{PodProbes: []v1alpha1.PodProbe{
		{Name: "a", Namespace: "ns", UID: "uid-a", IP: "10.0.0.1", Probes: []v1alpha1.ContainerProbe{probe}},
		{Name: "b", Namespace: "ns", UID: "uid-b", IP: "10.0.0.1", Probes: []v1alpha1.ContainerProbe{probe}},
	}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("spec (-want +got):\n%s", d)
	}
}

func TestMarkPod(t *testing.T) {
	m := gameMarker()
	lookup := func(ns, name string) *v1alpha1.PodProbeMarker {
		if ns == m.Namespace && name == m.Name {
			return m
		}
		return nil
	}
	t0 := metav1.Now()
	result := func(state v1alpha1.ProbeState) []v1alpha1.ContainerProbeState {
		return []v1alpha1.ContainerProbeState{{Name: "game-server-probe#Idle", State: state, LastProbeTime: t0, LastTransitionTime: t0}}
	}
	pod := gamePod("a")

	idle := markPod(pod, result(v1alpha1.ProbeSucceeded), lookup)
	if idle.Labels["gameserver-idle"] != "true" || idle.Annotations["controller.kubernetes.io/pod-deletion-cost"] != "-10" {
		t.Errorf("succeeded: labels %v annotations %v", idle.Labels, idle.Annotations)
	}
	if len(idle.Status.Conditions) != 1 || idle.Status.Conditions[0].Type != "game.io/idle" || idle.Status.Conditions[0].Status != corev1.ConditionTrue {
		t.Errorf("succeeded: conditions %v", idle.Status.Conditions)
	}
	// The same result again changes nothing (no write per probe period), even with
	// newer times.
	later := result(v1alpha1.ProbeSucceeded)
	later[0].LastProbeTime = metav1.NewTime(t0.Add(10e9))
	if again := markPod(idle, later, lookup); !cmp.Equal(again, idle) {
		t.Errorf("same result changed the pod: %s", cmp.Diff(idle, again))
	}
	busy := markPod(idle, result(v1alpha1.ProbeFailed), lookup)
	if busy.Labels["gameserver-idle"] != "false" || busy.Annotations["controller.kubernetes.io/pod-deletion-cost"] != "10" ||
		busy.Status.Conditions[0].Status != corev1.ConditionFalse {
		t.Errorf("failed: labels %v annotations %v conditions %v", busy.Labels, busy.Annotations, busy.Status.Conditions)
	}
	// With only a Succeeded policy, failure removes its marks (OpenKruise's documented note).
	m.Spec.Probes[0].MarkerPolicy = m.Spec.Probes[0].MarkerPolicy[:1]
	unmarked := markPod(idle, result(v1alpha1.ProbeFailed), lookup)
	if _, ok := unmarked.Labels["gameserver-idle"]; ok {
		t.Errorf("failed without a Failed policy: labels %v", unmarked.Labels)
	}
	if unknown := markPod(pod, result(v1alpha1.ProbeUnknown), lookup); !cmp.Equal(unknown, pod) {
		t.Errorf("an Unknown result changed the pod")
	}
}
