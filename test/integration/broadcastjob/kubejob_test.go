package broadcastjob

import (
	"context"
	"fmt"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// kube's own Job controller works on the stack: kwok's job Stages finish its pods, so a
// batch/v1 Job completes, and one whose pods ask to fail fails at its backoffLimit.
func TestKubeJob(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	job := func(name, exitCode string) string {
		return fmt.Sprintf(`
apiVersion: batch/v1
kind: Job
metadata:
  name: %s
spec:
  parallelism: 3
  completions: 3
  backoffLimit: 1
  template:
    metadata:
      annotations:
        %s: 1s
        %s: "%s"
    spec:
      restartPolicy: Never
      containers:
      - name: c
        image: busybox
`, name, annotationRunTime, annotationExitCode, exitCode)
	}
	apply(t, c, ns, job("ok", "0"))
	apply(t, c, ns, job("fails", "1"))

	for _, tc := range []struct {
		name string
		want batchv1.JobConditionType
	}{{"ok", batchv1.JobComplete}, {"fails", batchv1.JobFailed}} {
		var j *batchv1.Job
		framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
			var err error
			if j, err = c.Client.BatchV1().Jobs(ns).Get(context.Background(), tc.name, metav1.GetOptions{}); err != nil {
				return false, err
			}
			for _, cond := range j.Status.Conditions {
				if cond.Type == tc.want && cond.Status == corev1.ConditionTrue {
					return true, nil
				}
			}
			return false, fmt.Errorf("job %s: %+v", tc.name, j.Status)
		})
		switch tc.want {
		case batchv1.JobComplete:
			if j.Status.Succeeded != 3 || j.Status.Failed != 0 {
				t.Errorf("job ok: succeeded %d failed %d, want 3 and 0", j.Status.Succeeded, j.Status.Failed)
			}
		case batchv1.JobFailed:
			if j.Status.Failed < 2 || j.Status.Succeeded != 0 {
				t.Errorf("job fails: succeeded %d failed %d, want none and at least backoffLimit+1", j.Status.Succeeded, j.Status.Failed)
			}
		}
	}
}
