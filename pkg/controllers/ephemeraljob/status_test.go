package ephemeraljob

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

var t0 = time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)

func testJob() *v1alpha1.EphemeralJob {
	return &v1alpha1.EphemeralJob{
		ObjectMeta: metav1.ObjectMeta{Name: "debug", Namespace: "ns", UID: "job-uid"},
		Spec: v1alpha1.EphemeralJobSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}},
			Replicas: ptr.To[int32](3),
			Template: v1alpha1.EphemeralContainerTemplateSpec{EphemeralContainers: []corev1.EphemeralContainer{{
				EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debugger", Image: "busybox"}}}},
		},
	}
}

// testPod is a pod of the job's selector, created i seconds after t0; state is ""
// (not injected), "injected" (no status yet), "running", "succeeded", "failed", or
// "foreign" (a namesake container someone else added).
func testPod(i int, state string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i), Namespace: "ns",
		Labels: map[string]string{"app": "a"}, CreationTimestamp: metav1.NewTime(t0.Add(time.Duration(i) * time.Second))},
		Status: corev1.PodStatus{Phase: corev1.PodRunning}}
	if state == "" {
		return p
	}
	uid := "job-uid"
	if state == "foreign" {
		uid = "other"
	}
	p.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
		Name: "debugger", Env: []corev1.EnvVar{{Name: v1alpha1.EphemeralContainerEnvKey, Value: uid}}}}}
	var cs corev1.ContainerState
	switch state {
	case "running":
		cs.Running = &corev1.ContainerStateRunning{}
	case "succeeded":
		cs.Terminated = &corev1.ContainerStateTerminated{FinishedAt: metav1.NewTime(t0)}
	case "failed":
		cs.Terminated = &corev1.ContainerStateTerminated{ExitCode: 2, FinishedAt: metav1.NewTime(t0)}
	default:
		return p
	}
	p.Status.EphemeralContainerStatuses = []corev1.ContainerStatus{{Name: "debugger", State: cs}}
	return p
}

func TestComputeStatus(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*v1alpha1.EphemeralJob)
		pods   []string
		after  time.Duration
		phase  v1alpha1.EphemeralJobPhase
		counts [5]int32 // match running succeeded waiting failed
		done   bool
		cond   v1alpha1.EphemeralJobConditionType
		reason string
	}{
		{"no pods", nil, nil, 0, v1alpha1.EphemeralJobWaiting, [5]int32{}, false, v1alpha1.EJobMatchedEmpty, "MatchEmpty"},
		{"not injected yet", nil, []string{"", ""}, 0, v1alpha1.EphemeralJobWaiting, [5]int32{2, 0, 0, 2, 0}, false, v1alpha1.EJobInitialized, "Initialized"},
		{"one running", nil, []string{"running", "", "injected"}, 0, v1alpha1.EphemeralJobRunning, [5]int32{3, 1, 0, 2, 0}, false, "", ""},
		{"replicas caps the targets", nil, []string{"succeeded", "succeeded", "succeeded", ""}, 0, v1alpha1.EphemeralJobSucceeded,
			[5]int32{3, 0, 3, 0, 0}, true, v1alpha1.EJobSucceeded, "JobSucceeded"},
		{"foreign namesake is no target", nil, []string{"foreign", "succeeded"}, 0, v1alpha1.EphemeralJobSucceeded,
			[5]int32{1, 0, 1, 0, 0}, true, v1alpha1.EJobSucceeded, "JobSucceeded"},
		{"one failed", nil, []string{"failed", "succeeded"}, 0, v1alpha1.EphemeralJobFailed, [5]int32{2, 0, 1, 0, 1}, true, v1alpha1.EJobFailed, "JobFailed"},
		{"deadline passed", func(j *v1alpha1.EphemeralJob) { j.Spec.ActiveDeadlineSeconds = ptr.To[int64](10) },
			[]string{"running"}, 10 * time.Second, v1alpha1.EphemeralJobFailed, [5]int32{1, 1, 0, 0, 0}, true, v1alpha1.EJobFailed, "DeadlineExceeded"},
		{"deadline not yet", func(j *v1alpha1.EphemeralJob) { j.Spec.ActiveDeadlineSeconds = ptr.To[int64](10) },
			[]string{"running"}, 9 * time.Second, v1alpha1.EphemeralJobRunning, [5]int32{1, 1, 0, 0, 0}, false, "", ""},
		{"paused", func(j *v1alpha1.EphemeralJob) { j.Spec.Paused = true }, []string{"running", ""}, 0,
			v1alpha1.EphemeralJobPause, [5]int32{2, 1, 0, 1, 0}, false, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			job := testJob()
			if tc.mutate != nil {
				tc.mutate(job)
			}
			job.Status.StartTime = &metav1.Time{Time: t0}
			var pods []*corev1.Pod
			for i, s := range tc.pods {
				pods = append(pods, testPod(i, s))
			}
			st := computeStatus(job, targetPods(job, pods), t0.Add(tc.after))
			got := [5]int32{st.Matches, st.Running, st.Succeeded, st.Waiting, st.Failed}
			if st.Phase != tc.phase || got != tc.counts || (st.CompletionTime != nil) != tc.done {
				t.Errorf("phase %s counts %v completed %v; want %s %v %v", st.Phase, got, st.CompletionTime != nil, tc.phase, tc.counts, tc.done)
			}
			if tc.cond != "" {
				job.Status = *st
				if c := condition(job, tc.cond); c == nil || c.Status != corev1.ConditionTrue || c.Reason != tc.reason {
					t.Errorf("conditions %+v: want %s True %s", st.Conditions, tc.cond, tc.reason)
				}
			}
		})
	}
}

// The same pods a second later give the same status: a sync writes only when a pod's
// ephemeral containers changed.
func TestComputeStatusIsStable(t *testing.T) {
	job := testJob()
	pods := []*corev1.Pod{testPod(0, "failed"), testPod(1, "running"), testPod(2, "")}
	first := computeStatus(job, targetPods(job, pods), t0)
	job.Status = *first
	if again := computeStatus(job, targetPods(job, pods), t0.Add(time.Second)); !statusEqual(first, again) {
		t.Errorf("status changed without a pod change:\n%+v\n%+v", first, again)
	}
}

func TestToInjectHonoursParallelism(t *testing.T) {
	job := testJob()
	job.Spec.Replicas = nil
	job.Spec.Parallelism = ptr.To[int32](2)
	pods := []*corev1.Pod{testPod(0, "succeeded"), testPod(1, "injected"), testPod(2, ""), testPod(3, ""), testPod(4, "")}
	got := toInject(job, targetPods(job, pods))
	if len(got) != 1 || got[0].Name != "p2" {
		t.Errorf("toInject = %v, want [p2] (one slot left besides p1, oldest first)", names(got))
	}
	job.Spec.Parallelism = nil
	if got := toInject(job, targetPods(job, pods)); len(got) != 0 {
		t.Errorf("toInject = %v with parallelism 1 and p1 in flight, want none", names(got))
	}
}

func names(pods []*corev1.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

func condition(job *v1alpha1.EphemeralJob, t v1alpha1.EphemeralJobConditionType) *v1alpha1.EphemeralJobCondition {
	for i := range job.Status.Conditions {
		if job.Status.Conditions[i].Type == t {
			return &job.Status.Conditions[i]
		}
	}
	return nil
}
