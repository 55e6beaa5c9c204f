package fakecri

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2/ktesting"
)

const simNode = "kwok-node-0"

// simEnv is a KubeletSim over a Server and a fake clientset; pods are made Running by
// the test the way kwok's pod-ready stage does.
type simEnv struct {
	srv    *Server
	client *fake.Clientset
}

func startSim(t *testing.T) *simEnv {
	t.Helper()
	env := &simEnv{srv: NewServer(), client: newVersionedClientset()}
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	sim := NewKubeletSim(env.srv, env.client, simNode)
	go func() { done <- sim.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("KubeletSim.Run: %v", err)
		}
	})
	return env
}

// kwokPod is a pod as kwok's pod-ready stage leaves it: Running, containers reported
// ready with their spec image, no containerID.
func kwokPod(name string, mutate func(*corev1.Pod)) *corev1.Pod {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name), Annotations: map[string]string{"version": "v1"}},
		Spec: corev1.PodSpec{
			NodeName: simNode,
			Containers: []corev1.Container{{
				Name: "app", Image: "nginx:1.9.1",
				Env: []corev1.EnvVar{
					{Name: "VERSION", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.annotations['version']"}}},
					{Name: "FIXED", Value: "yes"},
				},
			}, {
				Name: "sidecar", Image: "busybox",
			}},
		},
	}
	if mutate != nil {
		mutate(pod)
	}
	markRunning(pod)
	return pod
}

func markRunning(pod *corev1.Pod) {
	pod.Status.Phase = corev1.PodRunning
	pod.Status.PodIP = "10.0.0.5"
	pod.Status.ContainerStatuses = nil
	for _, c := range pod.Spec.Containers {
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, corev1.ContainerStatus{
			Name: c.Name, Image: c.Image, Ready: true,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}},
		})
	}
}

func (e *simEnv) pod(t *testing.T, name string) *corev1.Pod {
	t.Helper()
	pod, err := e.client.CoreV1().Pods("ns").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return pod
}

func statusOf(pod *corev1.Pod, name string) *corev1.ContainerStatus {
	for i := range pod.Status.ContainerStatuses {
		if pod.Status.ContainerStatuses[i].Name == name {
			return &pod.Status.ContainerStatuses[i]
		}
	}
	return nil
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		ok, state := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; last state: %s", what, state)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitContainerID waits until the status of container name shows a running runtime
// container other than notID, and returns that container.
func (e *simEnv) waitContainerID(t *testing.T, pod, name, notID string, restartCount int32) Container {
	t.Helper()
	var found Container
	waitFor(t, fmt.Sprintf("%s/%s to run a new container with restartCount %d", pod, name, restartCount), func() (bool, string) {
		cs := statusOf(e.pod(t, pod), name)
		if cs == nil || cs.ContainerID == "" || cs.ContainerID == ContainerIDPrefix+notID || cs.RestartCount != restartCount {
			return false, fmt.Sprintf("%+v", cs)
		}
		c, ok := e.srv.Container(cs.ContainerID[len(ContainerIDPrefix):])
		if !ok || c.State != runtimeapi.ContainerState_CONTAINER_RUNNING {
			return false, fmt.Sprintf("status %s, runtime %+v", cs.ContainerID, c)
		}
		found = c
		return true, ""
	})
	return found
}

func (e *simEnv) statusPatches() int {
	n := 0
	for _, a := range e.client.Actions() {
		if a.GetVerb() == "patch" && a.GetSubresource() == "status" {
			n++
		}
	}
	return n
}

func TestKubeletSimStartsRestartsAndRemoves(t *testing.T) {
	e := startSim(t)
	ctx := context.Background()
	if _, err := e.client.CoreV1().Pods("ns").Create(ctx, kwokPod("web", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	app := e.waitContainerID(t, "web", "app", "", 0)
	sidecar := e.waitContainerID(t, "web", "sidecar", "", 0)
	sandboxes := e.srv.Sandboxes()
	if len(sandboxes) != 1 || sandboxes[0].Labels[LabelPodName] != "web" || sandboxes[0].Labels[LabelPodNamespace] != "ns" || sandboxes[0].Labels[LabelPodUID] != "uid-web" {
		t.Fatalf("sandboxes = %+v", sandboxes)
	}
	if app.SandboxID != sandboxes[0].ID || app.Labels[LabelContainerName] != "app" || app.Labels[LabelPodUID] != "uid-web" ||
		app.Image != "docker.io/library/nginx:1.9.1" || sidecar.Image != "docker.io/library/busybox:latest" {
		t.Errorf("app container = %+v", app)
	}
	if v, _ := app.EnvValue("VERSION"); v != "v1" {
		t.Errorf("VERSION = %q, want v1", v)
	}
	if v, _ := app.EnvValue("FIXED"); v != "yes" {
		t.Errorf("FIXED = %q, want yes", v)
	}
	// kwok's fields stay.
	cs := statusOf(e.pod(t, "web"), "app")
	if cs.Image != "nginx:1.9.1" || !cs.Ready || cs.State.Running == nil {
		t.Errorf("status after containerID = %+v", cs)
	}

	// A node daemon stops the container: the simulator restarts it, counting the restart,
	// in one status write.
	patchesBefore := e.statusPatches()
	if _, err := e.srv.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: app.ID, Timeout: 10}); err != nil {
		t.Fatal(err)
	}
	restarted := e.waitContainerID(t, "web", "app", app.ID, 1)
	cs = statusOf(e.pod(t, "web"), "app")
	if cs.LastTerminationState.Terminated == nil || cs.LastTerminationState.Terminated.ContainerID != ContainerIDPrefix+app.ID ||
		cs.LastTerminationState.Terminated.ExitCode != 0 || cs.LastTerminationState.Terminated.Reason != "Completed" ||
		!cs.Ready || cs.State.Running == nil || cs.State.Running.StartedAt.IsZero() {
		t.Errorf("status after restart = %+v", cs)
	}
	if got := e.statusPatches() - patchesBefore; got != 1 {
		t.Errorf("%d status writes for one restart, want 1", got)
	}
	if other := statusOf(e.pod(t, "web"), "sidecar"); other.ContainerID != ContainerIDPrefix+sidecar.ID || other.RestartCount != 0 {
		t.Errorf("sidecar status changed: %+v", other)
	}

	// The env is resolved again at each start: a new annotation shows after a restart.
	pod := e.pod(t, "web")
	pod.Annotations["version"] = "v2"
	if _, err := e.client.CoreV1().Pods("ns").Update(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.ExitContainer(restarted.ID, 1, ""); err != nil {
		t.Fatal(err)
	}
	third := e.waitContainerID(t, "web", "app", restarted.ID, 2)
	if v, _ := third.EnvValue("VERSION"); v != "v2" {
		t.Errorf("VERSION after restart = %q, want v2", v)
	}
	if cs := statusOf(e.pod(t, "web"), "app"); cs.LastTerminationState.Terminated.ExitCode != 1 || cs.LastTerminationState.Terminated.Reason != "Error" {
		t.Errorf("lastState after a crash = %+v", cs.LastTerminationState)
	}
	// Dead containers older than the last one are collected.
	if _, ok := e.srv.Container(app.ID); ok {
		t.Error("the first, twice replaced container still exists")
	}

	// Pod deleted: sandbox and containers go.
	if err := e.client.CoreV1().Pods("ns").Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "sandbox removal", func() (bool, string) {
		return len(e.srv.Sandboxes()) == 0 && len(e.srv.Containers()) == 0, fmt.Sprintf("%d sandboxes", len(e.srv.Sandboxes()))
	})
}

// kwok's pod-inplace-image-update stage rewrites containerStatuses (new image, restart
// count +1, no containerID, no lastState): the simulator replaces the container and puts
// the new containerID and the lastState back without counting another restart.
func TestKubeletSimFollowsKwokImageUpdate(t *testing.T) {
	e := startSim(t)
	ctx := context.Background()
	if _, err := e.client.CoreV1().Pods("ns").Create(ctx, kwokPod("web", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	old := e.waitContainerID(t, "web", "app", "", 0)

	// The spec changes first: until kwok reports the image, the container stays.
	pod := e.pod(t, "web")
	pod.Spec.Containers[0].Image = "nginx:1.10"
	pod, err := e.client.CoreV1().Pods("ns").Update(ctx, pod, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Then kwok's stage.
	pod.Status.ContainerStatuses[0] = corev1.ContainerStatus{
		Name: "app", Image: "nginx:1.10", ImageID: "docker.io/library/nginx:1.10@sha256:abc", Ready: true, RestartCount: 1,
		State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}},
	}
	if _, err := e.client.CoreV1().Pods("ns").UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	updated := e.waitContainerID(t, "web", "app", old.ID, 1)
	if updated.Image != "docker.io/library/nginx:1.10" {
		t.Errorf("new container runs %s, want nginx:1.10", updated.Image)
	}
	cs := statusOf(e.pod(t, "web"), "app")
	if cs.ImageID != "docker.io/library/nginx:1.10@sha256:abc" || cs.Image != "nginx:1.10" ||
		cs.LastTerminationState.Terminated == nil || cs.LastTerminationState.Terminated.ContainerID != ContainerIDPrefix+old.ID {
		t.Errorf("status after image update = %+v", cs)
	}
	if c, _ := e.srv.Container(old.ID); c.State != runtimeapi.ContainerState_CONTAINER_EXITED {
		t.Errorf("old container is %v, want exited", c.State)
	}
}

// kwok's pod-job-restart Stage restarts a failing OnFailure container by counting the
// restart in pod status: the runtime replaces the container and keeps kwok's count,
// rather than writing its own count back.
func TestKubeletSimFollowsKwokRestart(t *testing.T) {
	e := startSim(t)
	ctx := context.Background()
	if _, err := e.client.CoreV1().Pods("ns").Create(ctx, kwokPod("job", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	old := e.waitContainerID(t, "job", "app", "", 0)
	pod := e.pod(t, "job")
	cs := statusOf(pod, "app")
	cs.RestartCount = 1
	cs.LastTerminationState = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 3, Reason: "Error"}}
	if _, err := e.client.CoreV1().Pods("ns").UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.waitContainerID(t, "job", "app", old.ID, 1)
	if c, _ := e.srv.Container(old.ID); c.State != runtimeapi.ContainerState_CONTAINER_EXITED {
		t.Errorf("old container is %v, want exited", c.State)
	}
	if got := statusOf(e.pod(t, "job"), "app"); got.RestartCount != 1 || got.State.Running == nil {
		t.Errorf("status after kwok's restart = %+v, want running with restartCount 1", got)
	}
}

func TestKubeletSimLeavesPendingPodsAndHonoursRestartPolicy(t *testing.T) {
	e := startSim(t)
	ctx := context.Background()
	pending := kwokPod("pending", nil)
	pending.Status = corev1.PodStatus{Phase: corev1.PodPending}
	if _, err := e.client.CoreV1().Pods("ns").Create(ctx, pending, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	never := kwokPod("never", func(p *corev1.Pod) { p.Spec.RestartPolicy = corev1.RestartPolicyNever })
	if _, err := e.client.CoreV1().Pods("ns").Create(ctx, never, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	c := e.waitContainerID(t, "never", "app", "", 0)
	// The pending pod was seen before or with the other one (one informer, one queue);
	// it got nothing.
	for _, sb := range e.srv.Sandboxes() {
		if sb.Name == "pending" {
			t.Fatalf("a sandbox for a pod kwok has not started: %+v", sb)
		}
	}
	if err := e.srv.ExitContainer(c.ID, 0, ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "terminated status without restart", func() (bool, string) {
		cs := statusOf(e.pod(t, "never"), "app")
		return cs.State.Terminated != nil && !cs.Ready && cs.RestartCount == 0 && cs.ContainerID == ContainerIDPrefix+c.ID, fmt.Sprintf("%+v", cs)
	})
	for _, got := range e.srv.Containers() {
		if got.Labels[LabelContainerName] == "app" && got.Labels[LabelPodName] == "never" && got.ID != c.ID {
			t.Errorf("restartPolicy Never pod got a new container %s", got.ID)
		}
	}
}

// Status writes are conditional on the resourceVersion they were computed from.
func TestKubeletSimStatusPatchCarriesResourceVersion(t *testing.T) {
	e := startSim(t)
	if _, err := e.client.CoreV1().Pods("ns").Create(context.Background(), kwokPod("web", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.waitContainerID(t, "web", "app", "", 0)
	for _, a := range e.client.Actions() {
		if p, ok := a.(k8stesting.PatchAction); ok && a.GetSubresource() == "status" {
			if want := `"resourceVersion":`; !strings.Contains(string(p.GetPatch()), want) {
				t.Errorf("status patch %s has no resourceVersion", p.GetPatch())
			}
		}
	}
}
