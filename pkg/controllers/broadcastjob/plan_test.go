package broadcastjob

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
)

func TestCompute(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	start := now.Add(-time.Minute)
	node := func(name string, pods ...PodPhase) Node { return Node{Name: name, Eligible: true, Pods: pods} }
	three := []Node{node("a"), node("b"), node("c")}
	failFast := v1beta1.FailurePolicy{Type: v1beta1.FailurePolicyTypeFailFast}
	cont := v1beta1.FailurePolicy{Type: v1beta1.FailurePolicyTypeContinue}
	pause := v1beta1.FailurePolicy{Type: v1beta1.FailurePolicyTypePause}
	complete := &Finish{Type: v1beta1.JobComplete, Reason: ReasonComplete, Message: "Job completed"}
	failedPod := &Finish{Type: v1beta1.JobFailed, Reason: ReasonFailed, Message: "failed pod is found"}
	cases := []struct {
		name     string
		spec     v1beta1.BroadcastJobSpec
		reported v1beta1.BroadcastJobStatus
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
		{name: "a pod over its restart limit makes room", spec: v1beta1.BroadcastJobSpec{Parallelism: ptr.To(intstr.FromInt32(1)), FailurePolicy: cont},
			nodes: []Node{node("a", PodOverRestartLimit), node("b")},
			want:  Plan{Create: []string{"b"}, Desired: 2, Failed: 1, Phase: v1beta1.PhaseRunning}},
		{name: "paused creates nothing", spec: v1beta1.BroadcastJobSpec{Paused: true}, nodes: three,
			want: Plan{Desired: 3, Phase: v1beta1.PhasePaused}},
		{name: "paused does not complete", spec: v1beta1.BroadcastJobSpec{Paused: true}, nodes: []Node{node("a", PodSucceeded)},
			want: Plan{Desired: 1, Succeeded: 1, Phase: v1beta1.PhasePaused}},
		{name: "completes when every node's pod finished (Continue)", spec: v1beta1.BroadcastJobSpec{FailurePolicy: cont},
			nodes: []Node{node("a", PodSucceeded), node("b", PodFailed), {Name: "x"}},
			want:  Plan{Desired: 2, Succeeded: 1, Failed: 1, Phase: v1beta1.PhaseCompleted, Finish: complete}},
		{name: "Continue: completes past a pod over its restart limit, which goes", spec: v1beta1.BroadcastJobSpec{FailurePolicy: cont},
			nodes: []Node{node("a", PodSucceeded), node("b", PodOverRestartLimit)},
			want:  Plan{Desired: 2, Succeeded: 1, Failed: 1, Phase: v1beta1.PhaseCompleted, Finish: complete, DeleteRunning: true}},
		{name: "Continue: runs on past a failed pod", spec: v1beta1.BroadcastJobSpec{FailurePolicy: cont},
			nodes: []Node{node("a", PodFailed), node("b", PodActive), node("c")},
			want:  Plan{Create: []string{"c"}, Desired: 3, Active: 1, Failed: 1, Phase: v1beta1.PhaseRunning}},
		{name: "no eligible node: waits for one", nodes: []Node{{Name: "x"}},
			want: Plan{Phase: v1beta1.PhaseRunning}},
		{name: "never completion keeps running", spec: v1beta1.BroadcastJobSpec{CompletionPolicy: v1beta1.CompletionPolicy{Type: v1beta1.Never}},
			nodes: []Node{node("a", PodSucceeded)}, want: Plan{Desired: 1, Succeeded: 1, Phase: v1beta1.PhaseRunning}},
		{name: "never completion: a node that joins gets its pod", spec: v1beta1.BroadcastJobSpec{CompletionPolicy: v1beta1.CompletionPolicy{Type: v1beta1.Never}},
			nodes: []Node{node("a", PodSucceeded), node("new")},
			want:  Plan{Create: []string{"new"}, Desired: 2, Succeeded: 1, Phase: v1beta1.PhaseRunning}},
		{name: "FailFast at the first failed pod", spec: v1beta1.BroadcastJobSpec{FailurePolicy: failFast},
			nodes: []Node{node("a", PodFailed), node("b", PodActive), node("c")},
			want:  Plan{Desired: 3, Active: 1, Failed: 1, Phase: v1beta1.PhaseFailed, DeleteRunning: true, Finish: failedPod}},
		{name: "FailFast at a pod over its restart limit, which goes", spec: v1beta1.BroadcastJobSpec{FailurePolicy: failFast},
			nodes: []Node{node("a", PodOverRestartLimit), node("b", PodSucceeded)},
			want:  Plan{Desired: 2, Succeeded: 1, Failed: 1, Phase: v1beta1.PhaseFailed, DeleteRunning: true, Finish: failedPod}},
		{name: "FailFast with nothing left running", spec: v1beta1.BroadcastJobSpec{FailurePolicy: failFast},
			nodes: []Node{node("a", PodFailed), node("b", PodSucceeded)},
			want:  Plan{Desired: 2, Succeeded: 1, Failed: 1, Phase: v1beta1.PhaseFailed, Finish: failedPod}},
		{name: "Pause at a new failed pod", spec: v1beta1.BroadcastJobSpec{FailurePolicy: pause},
			nodes: []Node{node("a", PodFailed), node("b", PodActive), node("c")},
			want:  Plan{Desired: 3, Active: 1, Failed: 1, Phase: v1beta1.PhasePaused, Pause: true}},
		{name: "Pause at a pod over its restart limit", spec: v1beta1.BroadcastJobSpec{FailurePolicy: pause},
			nodes: []Node{node("a", PodOverRestartLimit), node("b")},
			want:  Plan{Desired: 2, Failed: 1, Phase: v1beta1.PhasePaused, Pause: true}},
		{name: "Pause: the last pod failing pauses instead of completing", spec: v1beta1.BroadcastJobSpec{FailurePolicy: pause},
			reported: v1beta1.BroadcastJobStatus{Succeeded: 1, Active: 1},
			nodes:    []Node{node("a", PodSucceeded), node("b", PodFailed)},
			want:     Plan{Desired: 2, Succeeded: 1, Failed: 1, Phase: v1beta1.PhasePaused, Pause: true}},
		{name: "Pause: paused, stays paused", spec: v1beta1.BroadcastJobSpec{FailurePolicy: pause, Paused: true},
			reported: v1beta1.BroadcastJobStatus{Phase: v1beta1.PhasePaused},
			nodes:    []Node{node("a", PodFailed), node("b")},
			want:     Plan{Desired: 2, Failed: 1, Phase: v1beta1.PhasePaused}},
		{name: "Pause: resumed, goes on past the failures it reported", spec: v1beta1.BroadcastJobSpec{FailurePolicy: pause},
			reported: v1beta1.BroadcastJobStatus{Failed: 1, Phase: v1beta1.PhasePaused},
			nodes:    []Node{node("a", PodFailed), node("b")},
			want:     Plan{Create: []string{"b"}, Resumed: true, Desired: 2, Failed: 1, Phase: v1beta1.PhaseRunning}},
		{name: "Pause: resumed, completes", spec: v1beta1.BroadcastJobSpec{FailurePolicy: pause},
			reported: v1beta1.BroadcastJobStatus{Failed: 1, Succeeded: 1, Phase: v1beta1.PhasePaused},
			nodes:    []Node{node("a", PodFailed), node("b", PodSucceeded)},
			want:     Plan{Resumed: true, Desired: 2, Succeeded: 1, Failed: 1, Phase: v1beta1.PhaseCompleted, Finish: complete}},
		{name: "Pause: resumed, pauses again at the next failure", spec: v1beta1.BroadcastJobSpec{FailurePolicy: pause},
			reported: v1beta1.BroadcastJobStatus{Failed: 1, Active: 1, Phase: v1beta1.PhaseRunning},
			nodes:    []Node{node("a", PodFailed), node("b", PodFailed), node("c")},
			want:     Plan{Desired: 3, Failed: 2, Phase: v1beta1.PhasePaused, Pause: true}},
		{name: "deadline pending requeues at it", start: &start,
			spec:  v1beta1.BroadcastJobSpec{CompletionPolicy: v1beta1.CompletionPolicy{ActiveDeadlineSeconds: ptr.To[int64](90)}},
			nodes: []Node{node("a", PodActive)}, want: Plan{Desired: 1, Active: 1, Phase: v1beta1.PhaseRunning, DeadlineIn: 30 * time.Second}},
		{name: "deadline exceeded fails", start: &start,
			spec:  v1beta1.BroadcastJobSpec{CompletionPolicy: v1beta1.CompletionPolicy{ActiveDeadlineSeconds: ptr.To[int64](60)}},
			nodes: []Node{node("a", PodActive), node("b")},
			want: Plan{Desired: 2, Active: 1, Phase: v1beta1.PhaseFailed, DeleteRunning: true,
				Finish: &Finish{Type: v1beta1.JobFailed, Reason: ReasonDeadlineExceeded, Message: "Job was active longer than specified deadline"}}},
		{name: "deadline exceeded while paused fails", start: &start,
			spec:  v1beta1.BroadcastJobSpec{Paused: true, CompletionPolicy: v1beta1.CompletionPolicy{ActiveDeadlineSeconds: ptr.To[int64](60)}},
			nodes: []Node{node("a", PodActive)},
			want: Plan{Desired: 1, Active: 1, Phase: v1beta1.PhaseFailed, DeleteRunning: true,
				Finish: &Finish{Type: v1beta1.JobFailed, Reason: ReasonDeadlineExceeded, Message: "Job was active longer than specified deadline"}}},
		{name: "never completion ignores the deadline", start: &start,
			spec:  v1beta1.BroadcastJobSpec{CompletionPolicy: v1beta1.CompletionPolicy{Type: v1beta1.Never, ActiveDeadlineSeconds: ptr.To[int64](1)}},
			nodes: []Node{node("a", PodActive)}, want: Plan{Desired: 1, Active: 1, Phase: v1beta1.PhaseRunning}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Compute(Input{Spec: &tc.spec, StartTime: tc.start, Reported: tc.reported, Nodes: tc.nodes, Now: now})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Compute (-want +got):\n%s", diff)
			}
		})
	}
}

// Parallelism 2147483647 (or a huge percent) over more nodes than the burst creates
// batch.Burst pods in a sync; the next syncs create the rest (issue 32).
func TestComputeIsBoundedByBurst(t *testing.T) {
	nodes := make([]Node, batch.Burst+20)
	for i := range nodes {
		nodes[i] = Node{Name: fmt.Sprintf("n%d", i), Eligible: true}
	}
	for _, par := range []intstr.IntOrString{intstr.FromInt32(math.MaxInt32), intstr.FromString("100000000%")} {
		in := Input{Spec: &v1beta1.BroadcastJobSpec{Parallelism: &par}, Nodes: nodes, Now: time.Now()}
		if got := Compute(in); len(got.Create) != batch.Burst {
			t.Errorf("parallelism %s: creates %d pods, want %d", par.String(), len(got.Create), batch.Burst)
		}
	}
}
