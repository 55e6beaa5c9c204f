package advancedcronjob

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// An imageListPullJobTemplate starts ImageListPullJobs controlled by the
// AdvancedCronJob. One image cannot be pulled, so every run ends failed (not every image
// on every node); failedJobsHistoryLimit 1 keeps only the newest of them.
func TestImageListPullJobRunsAndFailedHistory(t *testing.T) {
	t.Parallel()
	ns := framework.Get(t).CreateNamespace(t)
	apply(t, ns, `apiVersion: apps.kruise.io/v1alpha1
kind: AdvancedCronJob
metadata: {name: warmup}
spec:
  schedule: "@every 15s"
  failedJobsHistoryLimit: 1
  template:
    imageListPullJobTemplate:
      metadata:
        labels: {team: nightly}
      spec:
        images: [redis:7, fail.invalid/broken:1]
        selector: {names: [kwok-node-0]}
        pullPolicy: {backoffLimit: 0}
        completionPolicy: {type: Always}
`)
	acj, err := getACJ(t, ns, "warmup")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		list, err := kruiseClient(t).AppsV1alpha1().ImageListPullJobs(ns).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		finished := 0
		for i := range list.Items {
			j := &list.Items[i]
			if ref := metav1.GetControllerOf(j); ref == nil || ref.UID != acj.UID || j.Labels["team"] != "nightly" {
				t.Fatalf("run %s: controller %+v, labels %v", j.Name, ref, j.Labels)
			}
			seen[j.Name] = true
			if j.Status.CompletionTime != nil {
				finished++
			}
		}
		pruned, err := events(t, ns, "warmup", "SuccessfulDelete")
		if err != nil {
			return false, err
		}
		ok := len(pruned) > 0 && strings.Contains(pruned[0], "beyond failedJobsHistoryLimit 1") && finished <= 1
		return result(ok, "runs seen %d, finished now %d, deletions %v", len(seen), finished, pruned)
	})
	cur, err := getACJ(t, ns, "warmup")
	if err != nil {
		t.Fatal(err)
	}
	if cur.Status.Type != v1beta1.ImageListPullJobTemplate || cur.Status.LastScheduleTime == nil {
		t.Errorf("status %+v, want type ImageListPullJob and a last schedule time", cur.Status)
	}
}
