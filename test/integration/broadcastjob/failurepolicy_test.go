package broadcastjob

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// failingJob is a BroadcastJob whose pods fail after 1 s (kwok's pod-job-fail and
// pod-job-restart Stages), one at a time.
func failingJob(name, policy, restartPolicy string, restartLimit int) string {
	return strings.NewReplacer("NAME", name, "POLICY", policy, "RESTART_POLICY", restartPolicy, "LIMIT", fmt.Sprint(restartLimit)).Replace(`
apiVersion: apps.kruise.io/v1beta1
kind: BroadcastJob
metadata:
  name: NAME
spec:
  parallelism: 1
  failurePolicy:
    type: POLICY
    restartLimit: LIMIT
  template:
    metadata:
      annotations:
        ` + annotationRunTime + `: 1s
        ` + annotationExitCode + `: "3"
    spec:
      restartPolicy: RESTART_POLICY
      containers:
      - name: c
        image: busybox
`)
}

// FailFast: the job fails at its first failed pod and creates no other.
func TestFailFastStopsAtTheFirstFailedPod(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	apply(t, c, ns, failingJob("ff", "FailFast", "Never", 0))
	job := waitJob(t, c, ns, "ff", time.Minute, func(j *v1beta1.BroadcastJob) bool { return j.Status.Phase == v1beta1.PhaseFailed })
	if cond := condition(job, v1beta1.JobFailed); cond == nil || cond.Reason != "Failed" {
		t.Errorf("no Failed condition with reason Failed: %s", describe(job.Status))
	}
	if s := job.Status; s.Failed != 1 || s.Succeeded != 0 || s.Active != 0 || s.Desired != int32(c.Nodes) || s.CompletionTime == nil {
		t.Errorf("status %s, want one failed pod of %d desired", describe(s), c.Nodes)
	}
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		pods := jobPods(t, c, ns, "ff")
		if len(pods) != 1 {
			return false, fmt.Sprintf("%d pods after the first failed", len(pods))
		}
		st := pods[0].Status.ContainerStatuses
		if pods[0].Status.Phase != corev1.PodFailed || len(st) != 1 || st[0].State.Terminated == nil || st[0].State.Terminated.ExitCode != 3 {
			return false, fmt.Sprintf("pod %s: %s %+v, want Failed with exit code 3", pods[0].Name, pods[0].Status.Phase, st)
		}
		return true, ""
	})
}

// FailFast with restartPolicy OnFailure: the kubelet restarts the failing container in
// place; once its restarts pass restartLimit the pod counts as failed, the job fails
// and the pod, still running, is deleted.
func TestFailFastAtTheRestartLimit(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	apply(t, c, ns, failingJob("limit", "FailFast", "OnFailure", 2))
	job := waitJob(t, c, ns, "limit", time.Minute, func(j *v1beta1.BroadcastJob) bool { return j.Status.Phase == v1beta1.PhaseFailed })
	if s := job.Status; s.Failed != 1 || s.Active != 0 || condition(job, v1beta1.JobFailed) == nil {
		t.Errorf("status %s, want failed with one failed pod", describe(s))
	}
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		for _, p := range jobPods(t, c, ns, "limit") {
			if p.DeletionTimestamp == nil {
				return false, fmt.Errorf("pod %s (%s, restarts %+v) not deleted", p.Name, p.Status.Phase, p.Status.ContainerStatuses)
			}
		}
		return true, nil
	})
}

// Continue: failed pods are counted and the job completes once every node's pod
// finished.
func TestContinueCompletesPastFailedPods(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	apply(t, c, ns, failingJob("cont", "Continue", "Never", 0))
	job := waitJob(t, c, ns, "cont", 2*time.Minute, func(j *v1beta1.BroadcastJob) bool { return j.Status.Phase == v1beta1.PhaseCompleted })
	if s := job.Status; s.Failed != int32(c.Nodes) || s.Succeeded != 0 || s.Desired != int32(c.Nodes) || condition(job, v1beta1.JobComplete) == nil {
		t.Errorf("status %s, want complete with every pod failed", describe(s))
	}
}

// Pause: the job sets spec.paused at its first failed pod and creates no other; resumed
// by the user, it goes on, and pauses again at the next failed pod.
func TestPausePausesAtAFailedPod(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	apply(t, c, ns, failingJob("pause", "Pause", "Never", 0))
	paused := func(failed int32) func(*v1beta1.BroadcastJob) bool {
		return func(j *v1beta1.BroadcastJob) bool {
			return j.Spec.Paused && j.Status.Phase == v1beta1.PhasePaused && j.Status.Failed == failed
		}
	}
	waitJob(t, c, ns, "pause", time.Minute, paused(1))
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		n := len(jobPods(t, c, ns, "pause"))
		return n == 1, fmt.Sprintf("%d pods while paused", n)
	})
	if reasons := eventReasons(t, c, ns, "pause"); !slices.Contains(reasons, "Paused") {
		t.Errorf("events %v, want a Paused one", reasons)
	}

	if _, err := kruise(c).AppsV1beta1().BroadcastJobs(ns).Patch(context.Background(), "pause", types.MergePatchType,
		[]byte(`{"spec":{"paused":false}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	job := waitJob(t, c, ns, "pause", time.Minute, paused(2))
	if job.Status.Phase != v1beta1.PhasePaused || finished(job) {
		t.Errorf("status %s, want paused again, not finished", describe(job.Status))
	}
	if reasons := eventReasons(t, c, ns, "pause"); !slices.Contains(reasons, "Continue") {
		t.Errorf("events %v, want a Continue one on resume", reasons)
	}
}

func finished(j *v1beta1.BroadcastJob) bool {
	return condition(j, v1beta1.JobComplete) != nil || condition(j, v1beta1.JobFailed) != nil
}
