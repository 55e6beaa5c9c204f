package cluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// waitBroadcastJobSucceeded waits until the job ran its one pod (one node) to success.
func (s *suite) waitBroadcastJobSucceeded(t *testing.T, name string, timeout time.Duration) *appsv1alpha1.BroadcastJob {
	t.Helper()
	var job *appsv1alpha1.BroadcastJob
	must(t, harness.WaitFor(context.Background(), timeout, 250*time.Millisecond, "BroadcastJob "+name+" succeeded", func(ctx context.Context) error {
		var err error
		job, err = s.kruise.AppsV1alpha1().BroadcastJobs("default").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if st := job.Status; st.Desired != 1 || st.Succeeded != 1 || st.Failed != 0 {
			return fmt.Errorf("desired %d active %d succeeded %d failed %d phase %s", st.Desired, st.Active, st.Succeeded, st.Failed, st.Phase)
		}
		return nil
	}))
	return job
}

// testBroadcastJob: broadcastjob.yaml — one pod on the node runs the command and
// succeeds; the job reports 1 succeeded, and is deleted ttlSecondsAfterFinished (30s)
// after finishing.
func (s *suite) testBroadcastJob(t *testing.T) {
	ctx := context.Background()
	s.push(t, "busybox")
	begin := time.Now()
	s.apply(t, example(t, "broadcastjob.yaml"))
	defer func() {
		_ = s.kruise.AppsV1alpha1().BroadcastJobs("default").Delete(ctx, "bcj-demo", metav1.DeleteOptions{})
	}()
	job := s.waitBroadcastJobSucceeded(t, "bcj-demo", 2*time.Minute)
	t.Logf("bcj-demo succeeded on 1 node in %s (phase %s); kubectl get bcj:\n%s",
		time.Since(begin).Round(100*time.Millisecond), job.Status.Phase, s.kubectl(t, "get", "bcj", "bcj-demo"))
	finished := time.Now()
	must(t, harness.WaitFor(ctx, 90*time.Second, time.Second, "bcj-demo deleted after its TTL", func(ctx context.Context) error {
		_, err := s.kruise.AppsV1alpha1().BroadcastJobs("default").Get(ctx, "bcj-demo", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("still there")
	}))
	t.Logf("bcj-demo deleted %s after it was seen finished (ttlSecondsAfterFinished 30)", time.Since(finished).Round(time.Second))
	must(t, waitNoPods(ctx, s.c.Client, "default", "broadcastjob-name=bcj-demo"))
}

// testAdvancedCronJob: advancedcronjob.yaml — within a minute a BroadcastJob
// acj-test-<time> is created and succeeds.
func (s *suite) testAdvancedCronJob(t *testing.T) {
	ctx := context.Background()
	s.push(t, "busybox")
	s.apply(t, example(t, "advancedcronjob.yaml"))
	defer func() {
		must(t, ignoreNotFound(s.kruise.AppsV1alpha1().AdvancedCronJobs("default").Delete(ctx, "acj-test", metav1.DeleteOptions{})))
	}()
	var name string
	must(t, harness.WaitFor(ctx, 90*time.Second, time.Second, "a BroadcastJob of acj-test", func(ctx context.Context) error {
		jobs, err := s.kruise.AppsV1alpha1().BroadcastJobs("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		for _, j := range jobs.Items {
			if strings.HasPrefix(j.Name, "acj-test-") {
				name = j.Name
				return nil
			}
		}
		return fmt.Errorf("none yet")
	}))
	s.waitBroadcastJobSucceeded(t, name, 2*time.Minute)
	t.Logf("acj-test created %s, which succeeded; kubectl get acj:\n%s", name, s.kubectl(t, "get", "acj", "acj-test"))
}
