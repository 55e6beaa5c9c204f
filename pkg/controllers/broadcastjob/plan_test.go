package broadcastjob

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func TestCompute(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	start := now.Add(-time.Minute)
	node := func(name string, pods ...PodPhase) Node { return Node{Name: name, Eligible: true, Pods: pods} }
	three := []Node{node("a"), node("b"), node("c")}
	cases := []struct {
		name     string
		spec     v1beta1.BroadcastJobSpec
		finished v1beta1.JobConditionType
		start    *time.Time
		nodes    []Node
		want     Plan
	}{
		{name: "one pod per eligible node", nodes: []Node{node("a"), {Name: "x"}, node("b")},
			want: Plan{Create: []string{"a", "b"}, Desired: 2, Phase: v1beta1.PhaseRunning}},
		{name: "parallelism number", spec: v1beta1.BroadcastJobSpec{Parallelism: ptr.To(intstr.FromInt32(2))},
			nodes: []Node{node("a", PodActive), node("b"), node("c")},
			want:  Plan{Create: []string{"b"}, Desired: 3, Active: 1, Phase: v1beta1.PhaseRunning}},
		{name: "parallelism percent rounds up", spec: v1beta1.BroadcastJobSpec{Parallelism: ptr.To(intstr.FromString("50%"))},
			nodes: three, want: Plan{Create: []string{"a", "b"}, Desired: 3, Phase: v1beta1.PhaseRunning}},
		{name: "finished pods make room", spec: v1beta1.BroadcastJobSpec{Parallelism: ptr.To(intstr.FromInt32(1))},
			nodes: []Node{node("a", PodSucceeded), node("b"), node("c")},
			want:  Plan{Create: []string{"b"}, Desired: 3, Succeeded: 1, Phase: v1beta1.PhaseRunning}},
		{name: "paused creates nothing", spec: v1beta1.BroadcastJobSpec{Paused: true}, nodes: three,
			want: Plan{Desired: 3, Phase: v1beta1.PhasePaused}},
		{name: "completes when every node's pod finished", nodes: []Node{node("a", PodSucceeded), node("b", PodFailed), {Name: "x"}},
			want: Plan{Desired: 2, Succeeded: 1, Failed: 1, Phase: v1beta1.PhaseCompleted,
				Finish: &Finish{Type: v1beta1.JobComplete, Reason: ReasonComplete, Message: "Job completed"}}},
		{name: "never completion keeps running", spec: v1beta1.BroadcastJobSpec{CompletionPolicy: v1beta1.CompletionPolicy{Type: v1beta1.Never}},
			nodes: []Node{node("a", PodSucceeded)}, want: Plan{Desired: 1, Succeeded: 1, Phase: v1beta1.PhaseRunning}},
		{name: "fail fast at the first failed pod", spec: v1beta1.BroadcastJobSpec{FailurePolicy: v1beta1.FailurePolicy{Type: v1beta1.FailurePolicyTypeFailFast}},
			nodes: []Node{node("a", PodFailed), node("b", PodActive), node("c")},
			want: Plan{Desired: 3, Active: 1, Failed: 1, Phase: v1beta1.PhaseFailed, DeleteActive: true,
				Finish: &Finish{Type: v1beta1.JobFailed, Reason: ReasonFailed, Message: "failed pod is found"}}},
		{name: "deadline pending requeues at it", start: &start,
			spec:  v1beta1.BroadcastJobSpec{CompletionPolicy: v1beta1.CompletionPolicy{ActiveDeadlineSeconds: ptr.To[int64](90)}},
			nodes: []Node{node("a", PodActive)}, want: Plan{Desired: 1, Active: 1, Phase: v1beta1.PhaseRunning, DeadlineIn: 30 * time.Second}},
		{name: "deadline exceeded fails", start: &start,
			spec:  v1beta1.BroadcastJobSpec{CompletionPolicy: v1beta1.CompletionPolicy{ActiveDeadlineSeconds: ptr.To[int64](60)}},
			nodes: []Node{node("a", PodActive), node("b")},
			want: Plan{Desired: 2, Active: 1, Phase: v1beta1.PhaseFailed, DeleteActive: true,
				Finish: &Finish{Type: v1beta1.JobFailed, Reason: ReasonDeadlineExceeded, Message: "Job was active longer than specified deadline"}}},
		{name: "finished job does nothing", finished: v1beta1.JobComplete, nodes: []Node{node("a", PodSucceeded), node("b")},
			want: Plan{Desired: 2, Succeeded: 1, Phase: v1beta1.PhaseCompleted}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Compute(Input{Spec: &tc.spec, StartTime: tc.start, Finished: tc.finished, Nodes: tc.nodes, Now: now})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Compute (-want +got):\n%s", diff)
			}
		})
	}
}
