package advancedcronjob

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// broadcastCron is an AdvancedCronJob starting a BroadcastJob every 15 s; POLICY and
// EXTRA fill in its concurrency policy, other spec fields and the run's completion type.
const broadcastCron = `apiVersion: apps.kruise.io/v1alpha1
kind: AdvancedCronJob
metadata: {name: cron}
spec:
  schedule: "@every 15s"
  concurrencyPolicy: POLICY
  EXTRA
  template:
    broadcastJobTemplate:
      metadata:
        labels: {team: nightly}
      spec:
        completionPolicy: {type: COMPLETION}
        template:
          spec:
            restartPolicy: Never
            containers: [{name: c, image: busybox}]
`

func cron(policy, extra, completion string) string {
	return strings.NewReplacer("POLICY", policy, "EXTRA", extra, "COMPLETION", completion).Replace(broadcastCron)
}

// successfulJobsHistoryLimit 1: once a newer run completed, the older completed run
// is deleted, with an event saying which limit; the runs carry the template's labels.
func TestHistoryLimitKeepsTheNewestCompletedRun(t *testing.T) {
	t.Parallel()
	ns := framework.Get(t).CreateNamespace(t)
	apply(t, ns, cron("Allow", "successfulJobsHistoryLimit: 1", "Always"))
	acj, err := getACJ(t, ns, "cron")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		runs, err := broadcastJobsOf(t, acj)
		if err != nil {
			return false, err
		}
		var completed []string
		for name, j := range runs {
			if !seen[name] && j.Labels["team"] != "nightly" {
				t.Errorf("run %s labels %v, want the template's", name, j.Labels)
			}
			seen[name] = true
			if complete(j) {
				completed = append(completed, name)
			}
		}
		pruned, err := events(t, ns, "cron", "SuccessfulDelete")
		if err != nil {
			return false, err
		}
		// three starts seen, at most one completed run left, and a deletion said why
		ok := len(seen) >= 3 && len(completed) <= 1 && len(pruned) > 0
		return result(ok, "seen %d runs, completed now %v, deletions %v", len(seen), completed, pruned)
	})
	pruned, _ := events(t, ns, "cron", "SuccessfulDelete")
	if !strings.Contains(pruned[0], "beyond successfulJobsHistoryLimit 1") {
		t.Errorf("deletion event %q does not name the limit", pruned[0])
	}
	// the oldest run is gone
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names) // same length, so by start time
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		_, err := kruiseClient(t).AppsV1beta1().BroadcastJobs(ns).Get(context.Background(), names[0], metav1.GetOptions{})
		return result(apierrors.IsNotFound(err), "oldest run %s still there: %v", names[0], err)
	})
}

// Forbid: while the first run is active (completionPolicy Never never completes), the
// next start is skipped with a JobAlreadyActive event and no second run is created.
func TestForbidSkipsWhileARunIsActive(t *testing.T) {
	t.Parallel()
	ns := framework.Get(t).CreateNamespace(t)
	apply(t, ns, cron("Forbid", "", "Never"))
	acj, err := getACJ(t, ns, "cron")
	if err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		skipped, err := events(t, ns, "cron", "JobAlreadyActive")
		return len(skipped) > 0, err
	})
	runs, err := broadcastJobsOf(t, acj)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 {
		t.Fatalf("Forbid with a run active: %d runs, want 1", len(runs))
	}
	var first string
	for n := range runs {
		first = n
	}
	framework.Consistently(t, 20*time.Second, func() (bool, string) {
		runs, err := broadcastJobsOf(t, acj)
		if err != nil {
			return false, err.Error()
		}
		return len(runs) == 1 && runs[first] != nil, fmt.Sprintf("runs %v", len(runs))
	})
	acj, err = getACJ(t, ns, "cron")
	if err != nil {
		t.Fatal(err)
	}
	if activeNames(acj) != first || acj.Status.Type != v1beta1.BroadcastJobTemplate {
		t.Errorf("status active %q type %q, want %s and BroadcastJob", activeNames(acj), acj.Status.Type, first)
	}
}

// Replace: at the next start the active run is deleted and the new one created; the
// status lists only the new one.
func TestReplaceDeletesTheActiveRun(t *testing.T) {
	t.Parallel()
	ns := framework.Get(t).CreateNamespace(t)
	apply(t, ns, cron("Replace", "", "Never"))
	acj, err := getACJ(t, ns, "cron")
	if err != nil {
		t.Fatal(err)
	}
	var first string
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		runs, err := broadcastJobsOf(t, acj)
		for n := range runs {
			first = n
		}
		return len(runs) == 1, err
	})
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		runs, err := broadcastJobsOf(t, acj)
		if err != nil {
			return false, err
		}
		replaced, err := events(t, ns, "cron", "SuccessfulDelete")
		if err != nil {
			return false, err
		}
		cur, err := getACJ(t, ns, "cron")
		if err != nil {
			return false, err
		}
		_, firstLeft := runs[first]
		ok := !firstLeft && len(runs) == 1 && len(replaced) > 0 && strings.Contains(replaced[0], "concurrencyPolicy Replace") &&
			len(cur.Status.Active) == 1 && runs[cur.Status.Active[0].Name] != nil
		return result(ok, "first %s left: %v, runs %d, events %v, active %q", first, firstLeft, len(runs), replaced, activeNames(cur))
	})
}

// A jobTemplate starts batch/v1 Jobs controlled by the AdvancedCronJob; kube's Job
// controller runs them to completion, after which the status lists none active.
func TestJobTemplateStartsOwnedJobs(t *testing.T) {
	t.Parallel()
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	apply(t, ns, `apiVersion: apps.kruise.io/v1alpha1
kind: AdvancedCronJob
metadata: {name: jobs}
spec:
  schedule: "@every 15s"
  concurrencyPolicy: Forbid
  successfulJobsHistoryLimit: 10 # the first Job stays while the test looks at it
  template:
    jobTemplate:
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: c, image: busybox}]
`)
	acj, err := getACJ(t, ns, "jobs")
	if err != nil {
		t.Fatal(err)
	}
	var job *batchv1.Job
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		list, err := c.Client.BatchV1().Jobs(ns).List(context.Background(), metav1.ListOptions{})
		if err != nil || len(list.Items) == 0 {
			return false, err
		}
		job = &list.Items[0]
		return true, nil
	})
	ref := metav1.GetControllerOf(job)
	if ref == nil || ref.UID != acj.UID || ref.Kind != "AdvancedCronJob" || !strings.HasPrefix(job.Name, "jobs-") {
		t.Fatalf("job %s controller %+v, want AdvancedCronJob jobs (%s)", job.Name, ref, acj.UID)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		j, err := c.Client.BatchV1().Jobs(ns).Get(context.Background(), job.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		cur, err := getACJ(t, ns, "jobs")
		if err != nil {
			return false, err
		}
		done := false
		for _, cond := range j.Status.Conditions {
			done = done || cond.Type == batchv1.JobComplete && cond.Status == corev1.ConditionTrue
		}
		seen, _ := events(t, ns, "jobs", "SawCompletedJob")
		ok := done && cur.Status.Type == v1beta1.JobTemplate && !strings.Contains(activeNames(cur), job.Name) && len(seen) > 0
		return result(ok, "job complete %v, status type %q active %q, completion events %v", done, cur.Status.Type, activeNames(cur), seen)
	})
}
