package sidecarterminator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The documented example: a Job whose pods get a SidecarSet sidecar marked
// KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT=true. With the gate off (the default) its main
// container finishes and the pod stays Running with the sidecar, so the Job never
// completes. Once kruise-controller runs with the gate, the pod is ended (Succeeded,
// condition SidecarTerminated), its sidecar is stopped and reported terminated, and
// the Job completes; so does a restartPolicy OnFailure Job alongside.
func TestJobWithInjectedSidecarCompletes(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()

	manifest, err := os.ReadFile(filepath.Join(c.Root, "examples", "sidecarterminator.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	docs := strings.SplitN(string(manifest), "\n---\n", 2)
	if _, err := c.KubectlStdin(t, docs[0], "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _, _ = c.Kubectl(t, "delete", "sidecarsets.apps.kruise.io", "job-log-agent", "--ignore-not-found")
	})
	waitInjected(t, ns, "job-log-agent")
	if _, err := c.KubectlStdin(t, docs[1], "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	onFailure := strings.NewReplacer("name: sidecar-job", "name: sidecar-job-onfailure", "restartPolicy: Never", "restartPolicy: OnFailure").Replace(docs[1])
	if _, err := c.KubectlStdin(t, onFailure, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	jobs := []string{"sidecar-job", "sidecar-job-onfailure"}
	// A BroadcastJob too: one pod per node, the sidecar injected likewise.
	if _, err := c.KubectlStdin(t, broadcastJob, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	bcjSucceeded := func() (string, error) {
		out, stderr, err := c.Kubectl(t, "get", "broadcastjobs.apps.kruise.io", "-n", ns, "sidecar-bcj",
			"-o", `jsonpath={.status.desired}/{.status.succeeded}/{.status.conditions[?(@.type=="Complete")].status}`)
		if err != nil {
			return "", fmt.Errorf("%w: %s", err, stderr)
		}
		return out, nil
	}

	// Gate off: each pod's main container has finished, its sidecar runs, and nothing
	// ends the pod.
	for _, job := range jobs {
		waitPod(t, ns, job, "main container terminated, sidecar running", func(p *corev1.Pod) bool {
			return p.Status.Phase == corev1.PodRunning && terminated(p, "main") && running(p, "log-agent")
		})
	}
	framework.Consistently(t, 5*time.Second, func() (bool, string) {
		for _, job := range jobs {
			j, err := c.Client.BatchV1().Jobs(ns).Get(ctx, job, metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			if finished(j) != "" || j.Status.Succeeded != 0 {
				return false, fmt.Sprintf("job %s finished without SidecarTerminator: %+v", job, j.Status)
			}
		}
		if got, err := bcjSucceeded(); err != nil || !strings.HasSuffix(got, "/0/") {
			return false, fmt.Sprintf("BroadcastJob desired/succeeded/Complete = %q (%v), want none succeeded", got, err)
		}
		return true, ""
	})

	// Gate on.
	c.RestartKruiseControllers(t, "KRUISE_CONTROLLER_ARGS=--feature-gates=SidecarTerminator=true")
	t.Cleanup(func() { c.RestartKruiseControllers(t) })

	for _, job := range jobs {
		framework.WaitFor(t, time.Minute, func() (bool, error) {
			j, err := c.Client.BatchV1().Jobs(ns).Get(ctx, job, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			switch finished(j) {
			case batchv1.JobComplete:
				return j.Status.Succeeded == 1, nil
			case "":
				return false, fmt.Errorf("job %s not finished: %+v", job, j.Status)
			default:
				return false, fmt.Errorf("job %s failed: %+v", job, j.Status)
			}
		})
		pod := waitPod(t, ns, job, "ended with its sidecar stopped", func(p *corev1.Pod) bool {
			return p.Status.Phase == corev1.PodSucceeded && terminated(p, "main") && terminated(p, "log-agent")
		})
		cond := condition(pod, v1alpha1.SidecarTerminatedCondition)
		if cond == nil || cond.Status != corev1.ConditionTrue {
			t.Errorf("pod %s: condition %s = %+v, want True", pod.Name, v1alpha1.SidecarTerminatedCondition, cond)
		}
	}
	want := fmt.Sprintf("%d/%d/True", c.Nodes, c.Nodes)
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		got, err := bcjSucceeded()
		if err != nil {
			return false, err
		}
		if got != want {
			return false, fmt.Errorf("BroadcastJob desired/succeeded/Complete = %q, want %q", got, want)
		}
		return true, nil
	})
}

// broadcastJob runs a pod like the example Job's on every node.
const broadcastJob = `
apiVersion: apps.kruise.io/v1alpha1
kind: BroadcastJob
metadata:
  name: sidecar-bcj
spec:
  template:
    metadata:
      labels:
        app: sidecar-job
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox
`

// waitInjected waits until the pod webhook injects SidecarSet name into a pod the
// example's Job would create (a server dry run): the webhook reads SidecarSets from a
// cache, so a pod created right after the SidecarSet could miss it.
func waitInjected(t *testing.T, ns, name string) {
	t.Helper()
	c := framework.Get(t)
	probe := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "probe", Labels: map[string]string{"app": "sidecar-job"}},
		Spec:       corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "main", Image: "busybox"}}},
	}
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		out, err := c.Client.CoreV1().Pods(ns).Create(context.Background(), probe.DeepCopy(), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			return false, err
		}
		for _, n := range sidecarset.InjectedList(out) {
			if n == name {
				return true, nil
			}
		}
		return false, fmt.Errorf("SidecarSet %s not injected yet", name)
	})
}

// waitPod waits until the one pod of job satisfies cond, and returns it.
func waitPod(t *testing.T, ns, job, what string, cond func(*corev1.Pod) bool) *corev1.Pod {
	t.Helper()
	c := framework.Get(t)
	var pod *corev1.Pod
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		pods, err := c.Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "job-name=" + job})
		if err != nil {
			return false, err
		}
		if len(pods.Items) != 1 {
			return false, fmt.Errorf("job %s has %d pods, want 1", job, len(pods.Items))
		}
		pod = &pods.Items[0]
		if cond(pod) {
			return true, nil
		}
		return false, fmt.Errorf("pod %s not %s: phase %s, containers %+v", pod.Name, what, pod.Status.Phase, pod.Status.ContainerStatuses)
	})
	return pod
}

func status(p *corev1.Pod, name string) *corev1.ContainerStatus {
	for i := range p.Status.ContainerStatuses {
		if p.Status.ContainerStatuses[i].Name == name {
			return &p.Status.ContainerStatuses[i]
		}
	}
	return nil
}

func terminated(p *corev1.Pod, name string) bool {
	s := status(p, name)
	return s != nil && s.State.Terminated != nil
}

func running(p *corev1.Pod, name string) bool {
	s := status(p, name)
	return s != nil && s.State.Running != nil
}

func condition(p *corev1.Pod, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == t {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// finished is the Job's Complete or Failed condition that is True, or "".
func finished(j *batchv1.Job) batchv1.JobConditionType {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return c.Type
		}
	}
	return ""
}
