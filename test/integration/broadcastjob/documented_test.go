package broadcastjob

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// examples/broadcastjob.yaml, applied unchanged, behaves as its comment says:
// one pod per matching node; `kubectl get bcj` prints DESIRED ACTIVE SUCCEEDED FAILED
// AGE; marked failed after 10 s active (its pods run 20 s on this stack: main_test.go),
// the pods still running deleted; the job deleted 30 s after finishing.
func TestDocumentedExample(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	file := filepath.Join(c.Root, "examples", "broadcastjob.yaml")
	if out, stderr, err := c.Kubectl(t, "apply", "-f", file); err != nil {
		t.Fatalf("kubectl apply -f %s: %v\n%s%s", file, err, out, stderr)
	}
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "--ignore-not-found", "-f", file) })
	const ns, name = "default", "bcj-demo"
	nodes := int32(c.Nodes)

	waitJob(t, c, ns, name, time.Minute, func(j *v1beta1.BroadcastJob) bool { return j.Status.Active == nodes })
	out, stderr, err := c.Kubectl(t, "get", "bcj", "-n", ns, name)
	if err != nil {
		t.Fatalf("kubectl get bcj: %v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME DESIRED ACTIVE SUCCEEDED FAILED AGE" {
		t.Fatalf("kubectl get bcj printed:\n%s", out)
	}
	if row := strings.Fields(lines[1]); len(row) != 6 || row[1] != fmt.Sprint(nodes) || row[2] != fmt.Sprint(nodes) || row[3] != "0" || row[4] != "0" {
		t.Errorf("kubectl get bcj row %v, want desired = active = %d while the pods run", row, nodes)
	}

	failed := waitJob(t, c, ns, name, time.Minute, func(j *v1beta1.BroadcastJob) bool { return j.Status.Phase == v1beta1.PhaseFailed })
	cond := condition(failed, v1beta1.JobFailed)
	if cond == nil || cond.Reason != "DeadlineExceeded" {
		t.Fatalf("failed without a DeadlineExceeded Failed condition: %s", describe(failed.Status))
	}
	if s := failed.Status; s.StartTime == nil || s.CompletionTime == nil {
		t.Fatalf("no start or completion time: %+v", s)
	} else if active := s.CompletionTime.Sub(s.StartTime.Time); active < 10*time.Second || active > 15*time.Second {
		t.Errorf("failed %s after it started, want 10 s (activeDeadlineSeconds)", active)
	}
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		for _, p := range jobPods(t, c, ns, name) {
			if p.DeletionTimestamp == nil && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
				return false, fmt.Errorf("pod %s still %s after the deadline", p.Name, p.Status.Phase)
			}
		}
		return true, nil
	})

	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, err := kruise(c).AppsV1beta1().BroadcastJobs(ns).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, fmt.Errorf("job still there (err %v)", err)
	})
	if after := time.Since(failed.Status.CompletionTime.Time); after < 29*time.Second || after > 45*time.Second {
		t.Errorf("deleted %s after it finished, want 30 s (ttlSecondsAfterFinished)", after)
	}
}
