package workloadspread

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

var t0 = time.Unix(1000, 0)

func capped(caps ...*intstr.IntOrString) *appsv1beta1.WorkloadSpread {
	ws := &appsv1beta1.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Name: "ws", Generation: 2}}
	for i, c := range caps {
		ws.Spec.Subsets = append(ws.Spec.Subsets, appsv1beta1.WorkloadSpreadSubset{Name: string(rune('a' + i)), MaxReplicas: c})
	}
	return ws
}

func in(subset string, names ...string) []Pod {
	var out []Pod
	for i, n := range names {
		out = append(out, Pod{Name: n, Subset: subset, Created: t0.Add(time.Duration(i) * time.Second)})
	}
	return out
}

func TestComputeMissingReplicasAndCosts(t *testing.T) {
	three := intstr.FromInt32(3)
	ws := capped(&three, nil)
	ws.Status.SubsetStatuses = []appsv1beta1.WorkloadSpreadSubsetStatus{
		{Name: "a", CreatingPods: map[string]metav1.Time{
			"a1":    metav1.NewTime(t0),                       // seen: dropped
			"a-new": metav1.NewTime(t0.Add(10 * time.Second)), // not seen yet: kept
			"a-old": metav1.NewTime(t0.Add(-time.Minute)),     // expired: dropped
		}},
		{Name: "b", DeletingPods: map[string]metav1.Time{"b1": metav1.NewTime(t0.Add(10 * time.Second)), "gone": metav1.NewTime(t0)}},
	}
	pods := append(in("a", "a0", "a1"), in("b", "b0", "b1")...)
	pods = append(pods, Pod{Name: "a-dying", Subset: "a", Terminating: true}, Pod{Name: "stray"})
	pods[0].DeletionCost = ptr.To[int32](200) // already right
	res, err := Compute(ws, 10, pods, t0.Add(20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Status.SubsetStatuses[0], res.Status.SubsetStatuses[1]
	if res.Status.ObservedGeneration != 2 {
		t.Errorf("observedGeneration %d", res.Status.ObservedGeneration)
	}
	if a.MissingReplicas != 0 || len(a.CreatingPods) != 1 || a.CreatingPods["a-new"].Time.IsZero() {
		t.Errorf("subset a: %+v (3 - 2 pods - 1 creating = 0)", a)
	}
	if b.MissingReplicas != Unlimited || len(b.DeletingPods) != 1 {
		t.Errorf("subset b: %+v", b)
	}
	// replicas counts the active pods: a0 and a1; b0 (b1 is being deleted).
	if a.Replicas != 2 || b.Replicas != 1 {
		t.Errorf("replicas a=%d b=%d, want 2 and 1", a.Replicas, b.Replicas)
	}
	want := map[string]int32{"a1": 200, "b0": 100} // b1 is being deleted: it holds no slot
	if len(res.Costs) != len(want) {
		t.Errorf("costs %v, want %v", res.Costs, want)
	}
	for k, v := range want {
		if res.Costs[k] != v {
			t.Errorf("cost of %s = %d, want %d", k, res.Costs[k], v)
		}
	}
	if res.RequeueAfter != 5*time.Second {
		t.Errorf("requeue after %v, want 5s (deleting b1 expires at +25s)", res.RequeueAfter)
	}
}

// A spread shrunk below its pods: the newest pods beyond maxReplicas cost least, the
// last subset's overflow least of all; a percent is of the workload's replicas.
func TestComputeOverflowGoesFirst(t *testing.T) {
	one, half := intstr.FromInt32(1), intstr.FromString("50%")
	ws := capped(&one, &half)
	pods := append(in("a", "a0", "a1"), in("b", "b0", "b1", "b2")...)
	res, err := Compute(ws, 4, pods, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int32{"a0": 200, "a1": -100, "b0": 100, "b1": 100, "b2": -200}
	for k, v := range want {
		if res.Costs[k] != v {
			t.Errorf("cost of %s = %d, want %d", k, res.Costs[k], v)
		}
	}
	if m := res.Status.SubsetStatuses[1].MissingReplicas; m != 0 {
		t.Errorf("subset b missing %d, want 0 (over its cap)", m)
	}
}

func TestComputeAdaptiveMarksStuckSubset(t *testing.T) {
	ws := capped(nil, nil)
	ws.Spec.ScheduleStrategy = appsv1beta1.WorkloadSpreadScheduleStrategy{Type: appsv1beta1.AdaptiveWorkloadSpreadScheduleStrategyType,
		Adaptive: &appsv1beta1.AdaptiveWorkloadSpreadStrategy{RescheduleCriticalSeconds: ptr.To[int32](10)}}
	pods := in("a", "a0")
	pods[0].UnschedulableSince = t0
	res, _ := Compute(ws, 2, pods, t0.Add(5*time.Second))
	if len(res.Status.SubsetStatuses[0].Conditions) != 0 || res.RequeueAfter != 5*time.Second {
		t.Fatalf("before the critical time: %+v requeue %v", res.Status.SubsetStatuses[0], res.RequeueAfter)
	}
	res, _ = Compute(ws, 2, pods, t0.Add(10*time.Second))
	c := res.Status.SubsetStatuses[0].Conditions
	if len(c) != 1 || c[0].Status != corev1.ConditionFalse {
		t.Fatalf("after the critical time: %+v", c)
	}
	ws.Status = res.Status
	// the pod is gone; the mark holds for the critical time, then lifts
	res, _ = Compute(ws, 2, nil, t0.Add(15*time.Second))
	if c := res.Status.SubsetStatuses[0].Conditions; c[0].Status != corev1.ConditionFalse || res.RequeueAfter != 5*time.Second {
		t.Fatalf("mark lifted early: %+v", c)
	}
	ws.Status = res.Status
	res, _ = Compute(ws, 2, nil, t0.Add(20*time.Second))
	if c := res.Status.SubsetStatuses[0].Conditions; c[0].Status != corev1.ConditionTrue {
		t.Fatalf("mark not lifted: %+v", c)
	}
	if _, s := Reserve(&appsv1beta1.WorkloadSpread{ObjectMeta: ws.ObjectMeta, Spec: ws.Spec, Status: res.Status}, "p", metav1.NewTime(t0)); s != "a" {
		t.Fatalf("after the mark lifted the pod went to %q", s)
	}
}

func TestInject(t *testing.T) {
	term := &corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}}
	sub := &appsv1beta1.WorkloadSpreadSubset{Name: "a", RequiredNodeSelectorTerm: term,
		PreferredNodeSelectorTerms: []corev1.PreferredSchedulingTerm{{Weight: 1, Preference: *term}},
		Tolerations:                []corev1.Toleration{{Key: "spot", Operator: corev1.TolerationOpExists}}}
	sub.Patch.Raw = []byte(`{"metadata":{"labels":{"zone":"a"}},"spec":{"containers":[{"name":"c","env":[{"name":"ZONE","value":"a"}]}]}}`)
	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}},
		Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{
				{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "arch", Operator: corev1.NodeSelectorOpIn, Values: []string{"x"}}}},
				{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "arch", Operator: corev1.NodeSelectorOpIn, Values: []string{"y"}}}},
			}}}}}}
	out, err := Inject(pod, "ws", sub)
	if err != nil {
		t.Fatal(err)
	}
	terms := out.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) != 2 || len(terms[0].MatchExpressions) != 2 || len(terms[1].MatchExpressions) != 2 {
		t.Errorf("required terms %v: the zone must be ANDed into each", terms)
	}
	if len(out.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) != 1 || len(out.Spec.Tolerations) != 1 {
		t.Errorf("preferred %v tolerations %v", out.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution, out.Spec.Tolerations)
	}
	if out.Labels["zone"] != "a" || out.Spec.Containers[0].Image != "nginx" || len(out.Spec.Containers[0].Env) != 1 {
		t.Errorf("patch: labels %v container %+v", out.Labels, out.Spec.Containers[0])
	}
	if out.Annotations[Annotation] != `{"name":"ws","subset":"a"}` {
		t.Errorf("annotation %q", out.Annotations[Annotation])
	}
	if pod.Labels != nil || len(pod.Spec.Tolerations) != 0 {
		t.Error("the input pod was modified")
	}
}
