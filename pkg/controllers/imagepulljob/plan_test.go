package imagepulljob

import (
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
)

func TestSplitImage(t *testing.T) {
	cases := []struct{ in, name, tag string }{
		{"nginx:1.9.1", "nginx", "1.9.1"},
		{"nginx", "nginx", "latest"},
		{"registry.local:5000/team/app:v2", "registry.local:5000/team/app", "v2"},
		{"registry.local:5000/team/app", "registry.local:5000/team/app", "latest"},
	}
	for _, tc := range cases {
		name, tag, err := SplitImage(tc.in)
		if err != nil || name != tc.name || tag != tc.tag {
			t.Errorf("SplitImage(%q) = %q, %q, %v; want %q, %q", tc.in, name, tag, err, tc.name, tc.tag)
		}
	}
}

func TestParallelism(t *testing.T) {
	cases := []struct {
		p     *intstr.IntOrString
		nodes int
		want  int
	}{
		{nil, 5, 1},
		{ptr.To(intstr.FromInt32(10)), 2, 10},
		{ptr.To(intstr.FromInt32(0)), 2, 0},
		{ptr.To(intstr.FromString("50%")), 3, 2},
		{ptr.To(intstr.FromString("1%")), 3, 1},
	}
	for _, tc := range cases {
		job := &v1alpha1.ImagePullJob{Spec: v1alpha1.ImagePullJobSpec{ImagePullJobTemplate: v1alpha1.ImagePullJobTemplate{Parallelism: tc.p}}}
		if got := Parallelism(job, tc.nodes); got != tc.want {
			t.Errorf("Parallelism(%v, %d) = %d, want %d", tc.p, tc.nodes, got, tc.want)
		}
	}
}

func TestCompute(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	started := metav1.NewTime(now.Add(-time.Minute))
	job := func(parallelism int32, policy v1alpha1.CompletionPolicy) *v1alpha1.ImagePullJob {
		j := &v1alpha1.ImagePullJob{}
		j.Spec.Parallelism = ptr.To(intstr.FromInt32(parallelism))
		j.Spec.CompletionPolicy = policy
		j.Status.StartTime = &started
		return j
	}
	always := v1alpha1.CompletionPolicy{Type: v1alpha1.Always}
	n := func(name string, p NodeProgress) NodeState { return NodeState{Node: name, Progress: p} }

	cases := []struct {
		name       string
		job        *v1alpha1.ImagePullJob
		nodes      []NodeState
		wantStart  []string
		wantRepull []string
		wantActive int32
		wantDone   bool
		wantMsg    string
	}{
		{name: "starts up to parallelism, in node order", job: job(2, always),
			nodes:     []NodeState{n("a", NotStarted), n("b", NotStarted), n("c", NotStarted)},
			wantStart: []string{"a", "b"}, wantActive: 2, wantMsg: "job is running, progress 0/3"},
		{name: "a finished node frees a slot", job: job(2, always),
			nodes:     []NodeState{n("a", Succeeded), n("b", Pulling), n("c", NotStarted)},
			wantStart: []string{"c"}, wantActive: 2, wantMsg: "job is running, progress 1/3"},
		{name: "all slots busy", job: job(1, always),
			nodes:      []NodeState{n("a", Pulling), n("b", NotStarted)},
			wantActive: 1, wantMsg: "job is running, progress 0/2"},
		{name: "parallelism 0 pauses", job: job(0, always),
			nodes:   []NodeState{n("a", NotStarted)},
			wantMsg: "job is paused (parallelism 0), progress 0/1"},
		{name: "every node finished: complete, failures counted", job: job(10, always),
			nodes:    []NodeState{n("a", Succeeded), n("b", Failed)},
			wantDone: true, wantMsg: "job has completed: 1 of 2 nodes failed to pull"},
		{name: "no node: complete", job: job(10, always), wantDone: true,
			wantMsg: "job has completed: no node matched its selector"},
		{name: "deadline passed", job: job(1, v1alpha1.CompletionPolicy{Type: v1alpha1.Always, ActiveDeadlineSeconds: ptr.To[int64](30)}),
			nodes:    []NodeState{n("a", Pulling), n("b", NotStarted)},
			wantDone: true, wantMsg: "job exceeded its activeDeadlineSeconds (30s): 0 of 2 nodes pulled"},
		{name: "Never does not complete and re-pulls after a day", job: job(5, v1alpha1.CompletionPolicy{Type: v1alpha1.Never}),
			nodes: []NodeState{
				{Node: "a", Progress: Succeeded, FinishedAt: now.Add(-25 * time.Hour)},
				{Node: "b", Progress: Succeeded, FinishedAt: now.Add(-time.Hour)},
			},
			wantRepull: []string{"a"}, wantMsg: "job is running, progress 2/2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plan := Compute(tc.job, tc.nodes, now)
			if !reflect.DeepEqual(plan.Start, tc.wantStart) {
				t.Errorf("start = %v, want %v", plan.Start, tc.wantStart)
			}
			if !reflect.DeepEqual(plan.Repull, tc.wantRepull) {
				t.Errorf("repull = %v, want %v", plan.Repull, tc.wantRepull)
			}
			st := plan.Status
			if st.Desired != int32(len(tc.nodes)) {
				t.Errorf("desired = %d, want %d", st.Desired, len(tc.nodes))
			}
			if !tc.wantDone && st.Active != tc.wantActive {
				t.Errorf("active = %d, want %d", st.Active, tc.wantActive)
			}
			if (st.CompletionTime != nil) != tc.wantDone {
				t.Errorf("completed = %v, want %v", st.CompletionTime != nil, tc.wantDone)
			}
			if st.Message != tc.wantMsg {
				t.Errorf("message = %q, want %q", st.Message, tc.wantMsg)
			}
		})
	}
}

// The invariant behind parallelism: however the nodes stand, a plan never has more
// nodes pulling than the job allows.
func TestComputeNeverExceedsParallelism(t *testing.T) {
	now := time.Now()
	progress := []NodeProgress{NotStarted, Pulling, Succeeded, Failed}
	for seed := 0; seed < 4096; seed++ {
		var nodes []NodeState
		s := seed
		for i := 0; i < 6; i++ {
			nodes = append(nodes, NodeState{Node: string(rune('a' + i)), Progress: progress[s%4]})
			s /= 4
		}
		pulling := 0
		for _, n := range nodes {
			if n.Progress == Pulling {
				pulling++
			}
		}
		for par := int32(0); par <= 3; par++ {
			j := &v1alpha1.ImagePullJob{}
			j.Spec.Parallelism = ptr.To(intstr.FromInt32(par))
			j.Spec.CompletionPolicy.Type = v1alpha1.Always
			plan := Compute(j, nodes, now)
			if after := pulling + len(plan.Start); len(plan.Start) > 0 && after > int(par) {
				t.Fatalf("seed %d parallelism %d: %d pulling after starting %v", seed, par, after, plan.Start)
			}
		}
	}
}

// Parallelism 2147483647 over more nodes than the burst starts batch.Burst nodes a
// sync, and re-pulls at most as many (issue 32).
func TestComputeIsBoundedByBurst(t *testing.T) {
	now := time.Now()
	var fresh, stale []NodeState
	for i := range batch.Burst + 20 {
		fresh = append(fresh, NodeState{Node: fmt.Sprintf("n%d", i)})
		stale = append(stale, NodeState{Node: fmt.Sprintf("n%d", i), Progress: Succeeded, FinishedAt: now.Add(-2 * RepullInterval)})
	}
	j := &v1alpha1.ImagePullJob{}
	j.Spec.Parallelism = ptr.To(intstr.FromInt32(math.MaxInt32))
	j.Spec.CompletionPolicy.Type = v1alpha1.Never
	if got := Compute(j, fresh, now); len(got.Start) != batch.Burst {
		t.Errorf("starts %d nodes, want %d", len(got.Start), batch.Burst)
	}
	if got := Compute(j, stale, now); len(got.Repull) != batch.Burst {
		t.Errorf("re-pulls %d nodes, want %d", len(got.Repull), batch.Burst)
	}
}
