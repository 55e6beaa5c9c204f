package broadcastjob

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The annotations the local stack's kwok Stages read of a job pod (hack/LOCAL.md).
const (
	annotationRunTime  = "job.kwok.kruise-native.io/run-time"
	annotationExitCode = "job.kwok.kruise-native.io/exit-code"
)

func kruise(c *framework.Cluster) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(c.Config)
}

func apply(t *testing.T, c *framework.Cluster, ns, manifest string) {
	t.Helper()
	if out, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v\n%s", err, out)
	}
}

// jobPods lists a job's pods.
func jobPods(t *testing.T, c *framework.Cluster, ns, job string) []corev1.Pod {
	t.Helper()
	pods, err := c.Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "broadcastjob-name=" + job})
	if err != nil {
		t.Fatal(err)
	}
	return pods.Items
}

// waitJob polls the job until done says it stands as wanted, and returns it.
func waitJob(t *testing.T, c *framework.Cluster, ns, name string, within time.Duration, done func(*v1beta1.BroadcastJob) bool) *v1beta1.BroadcastJob {
	t.Helper()
	var job *v1beta1.BroadcastJob
	framework.WaitFor(t, within, func() (bool, error) {
		var err error
		job, err = kruise(c).AppsV1beta1().BroadcastJobs(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if !done(job) {
			return false, fmt.Errorf("paused=%v status %s", job.Spec.Paused, describe(job.Status))
		}
		return true, nil
	})
	return job
}

func describe(s v1beta1.BroadcastJobStatus) string {
	conds := make([]string, 0, len(s.Conditions))
	for _, c := range s.Conditions {
		conds = append(conds, fmt.Sprintf("%s=%s(%s)", c.Type, c.Status, c.Reason))
	}
	sort.Strings(conds)
	return fmt.Sprintf("phase=%s desired=%d active=%d succeeded=%d failed=%d conditions=[%s]",
		s.Phase, s.Desired, s.Active, s.Succeeded, s.Failed, strings.Join(conds, " "))
}

func condition(job *v1beta1.BroadcastJob, t v1beta1.JobConditionType) *v1beta1.JobCondition {
	for i, c := range job.Status.Conditions {
		if c.Type == t && c.Status == corev1.ConditionTrue {
			return &job.Status.Conditions[i]
		}
	}
	return nil
}

// events lists the reasons of the events recorded about the named object.
func eventReasons(t *testing.T, c *framework.Cluster, ns, name string) []string {
	t.Helper()
	list, err := c.Client.CoreV1().Events(ns).List(context.Background(), metav1.ListOptions{FieldSelector: "involvedObject.name=" + name})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range list.Items {
		out = append(out, e.Reason)
	}
	return out
}
