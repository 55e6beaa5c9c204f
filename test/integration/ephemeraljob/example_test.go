package ephemeraljob

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// examples/ephemeraljob.yaml applied unchanged (the documented EphemeralJob and the
// CloneSet of two helloworld pods it selects): the debugger container, marked with the
// job's UID, is added to both pods (replicas 2), one pod at a time (parallelism 1),
// with one ephemeralcontainers patch per pod; the containers run and exit 0, the job
// ends Succeeded with match 2, succeeded 2 and the JobSucceeded condition, `kubectl
// get ejob` prints OpenKruise's columns, and ttlSecondsAfterFinished (60) after it
// finished the job is deleted.
func TestDocumentedExample(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	data, err := os.ReadFile(filepath.Join(c.Root, "examples", "ephemeraljob.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	patchesBefore := controllerWrites(t, "pods/ephemeralcontainers", "PATCH")
	statusBefore := controllerWrites(t, "ephemeraljobs/status", "PUT")
	if out, err := c.KubectlStdin(t, string(data), "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	jobs := kruise(t).AppsV1alpha1().EphemeralJobs(ns)

	// parallelism 1: never two pods with running containers at once.
	var job *v1alpha1.EphemeralJob
	framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
		job, err = jobs.Get(ctx, "ephemeraljob-demo", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if job.Status.Running > 1 {
			t.Errorf("running %d > parallelism 1", job.Status.Running)
		}
		return job.Status.Phase == v1alpha1.EphemeralJobSucceeded, nil
	})
	st := job.Status
	if st.Matches != 2 || st.Succeeded != 2 || st.Failed != 0 || st.Running != 0 || st.Waiting != 0 ||
		st.StartTime == nil || st.CompletionTime == nil {
		t.Errorf("status %+v: want match 2, succeeded 2, start and completion times", st)
	}
	if cond := condition(job, v1alpha1.EJobSucceeded); cond == nil || cond.Status != corev1.ConditionTrue {
		t.Errorf("conditions %+v: want JobSucceeded True", st.Conditions)
	}
	// Applied as v1alpha1, read back as v1beta1 (OpenKruise master's version): the same job.
	if out, stderr, err := c.Kubectl(t, "get", "ephemeraljobs.v1beta1.apps.kruise.io", "-n", ns, "ephemeraljob-demo",
		"-o", "jsonpath={.apiVersion} {.status.phase} {.status.succeeded}"); err != nil || out != "apps.kruise.io/v1beta1 Succeeded 2" {
		t.Errorf("v1beta1 EphemeralJob: %q %v %s", out, err, stderr)
	}

	pods, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=helloworld"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pods.Items) != 2 {
		t.Fatalf("%d helloworld pods, want 2", len(pods.Items))
	}
	for i := range pods.Items {
		p := &pods.Items[i]
		ec := injected(p, job, "debugger")
		if ec == nil || ec.Image != "busybox:1.36" || ec.TargetContainerName != "main" || strings.Join(ec.Command, " ") != "sleep 3000" {
			t.Errorf("pod %s: ephemeral containers %+v: want the job's debugger", p.Name, p.Spec.EphemeralContainers)
		}
		if s := ephemeralStatus(p, "debugger"); s == nil || s.State.Terminated == nil || s.State.Terminated.ExitCode != 0 {
			t.Errorf("pod %s: ephemeral container statuses %+v: want debugger terminated with exit 0", p.Name, p.Status.EphemeralContainerStatuses)
		}
	}
	if got := controllerWrites(t, "pods/ephemeralcontainers", "PATCH") - patchesBefore; got != 2 {
		t.Errorf("%v ephemeralcontainers patches, want 2 (one per pod)", got)
	}
	// One status write per change of a pod: the first (startTime, Initialized), then per
	// pod at most its appearing, its containers starting and their exit: 1 + 3*2.
	statusWrites := controllerWrites(t, "ephemeraljobs/status", "PUT") - statusBefore
	t.Logf("%v EphemeralJob status writes", statusWrites)
	if statusWrites > 7 {
		t.Errorf("%v EphemeralJob status writes, want at most 7 (one per pod state change)", statusWrites)
	}

	out, stderr, err := c.Kubectl(t, "get", "ejob", "-n", ns)
	if err != nil {
		t.Fatalf("kubectl get ejob: %v: %s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME STATUS MATCH SUCCEED FAILED RUNNING WAITING AGE" ||
		!strings.HasPrefix(strings.Join(strings.Fields(lines[1]), " "), "ephemeraljob-demo Succeeded 2 2 0 0 0 ") {
		t.Errorf("kubectl get ejob:\n%s", out)
	}

	// ttlSecondsAfterFinished: 60.
	deadline := job.Status.CompletionTime.Add(60 * time.Second)
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		_, err := jobs.Get(ctx, "ephemeraljob-demo", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
	if early := time.Until(deadline); early > 2*time.Second {
		t.Errorf("deleted %v before its TTL ran out", early)
	}
	if w := controllerWrites(t, "ephemeraljobs/status", "PUT") - statusBefore; w != statusWrites {
		t.Errorf("%v status writes while the finished job waited for its TTL, want none", w-statusWrites)
	}
}
