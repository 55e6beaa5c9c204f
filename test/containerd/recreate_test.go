package containerd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2/ktesting"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/containerrecreate"
)

// The daemon's half of a ContainerRecreateRequest against real containers: the
// executor runs the preStop hook through ExecSync and stops the container
// through StopContainer with the grace period; the kubelet's half (starting
// the next attempt) is played by the test. The pod uses the host network, so
// no CNI plugin is needed; like the kubelet for such pods, it sets no
// hostname (runc refuses one without a private UTS namespace).
func (e *env) testRecreate(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	cri := e.rt.cri.Runtime
	image := e.reg.ref(publicImage)
	if _, err := e.rt.cri.Images.PullImage(ctx, &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: image}}); err != nil {
		t.Fatalf("PullImage %s: %v", image, err)
	}
	hookDir := filepath.Join(e.rt.dir, "hook-out")
	if err := os.MkdirAll(hookDir, 0o755); err != nil {
		t.Fatal(err)
	}

	sandboxConfig := &runtimeapi.PodSandboxConfig{
		Metadata:     &runtimeapi.PodSandboxMetadata{Name: "crr-demo", Namespace: "default", Uid: "crr-demo-uid"},
		LogDirectory: filepath.Join(e.rt.podLogs, "default_crr-demo_crr-demo-uid"),
		Linux: &runtimeapi.LinuxPodSandboxConfig{SecurityContext: &runtimeapi.LinuxSandboxSecurityContext{
			NamespaceOptions: &runtimeapi.NamespaceOption{Network: runtimeapi.NamespaceMode_NODE},
		}},
	}
	begin := time.Now()
	sb, err := cri.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: sandboxConfig})
	if err != nil {
		t.Skipf("containerd cannot run a pod sandbox on this machine: %v\n--- containerd log (tail) ---\n%s", err, e.rt.logTail(30))
	}
	t.Cleanup(func() {
		ctx := context.Background()
		_, _ = cri.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: sb.GetPodSandboxId()})
		if _, err := cri.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: sb.GetPodSandboxId()}); err != nil {
			t.Errorf("RemovePodSandbox: %v", err)
		}
	})
	t.Logf("sandbox %s running after %s", short(sb.GetPodSandboxId()), time.Since(begin).Round(time.Millisecond))

	// Until containers have run once, a runtime error means this machine
	// cannot run them (skip, with the error); after that it is a failure.
	cannot := t.Skipf
	start := func(name string, attempt uint32, args ...string) string {
		t.Helper()
		created, err := cri.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{
			PodSandboxId:  sb.GetPodSandboxId(),
			SandboxConfig: sandboxConfig,
			Config: &runtimeapi.ContainerConfig{
				Metadata: &runtimeapi.ContainerMetadata{Name: name, Attempt: attempt},
				Image:    &runtimeapi.ImageSpec{Image: image},
				Args:     args,
				LogPath:  fmt.Sprintf("%s/%d.log", name, attempt), // the kubelet's layout
				Mounts:   []*runtimeapi.Mount{{ContainerPath: "/out", HostPath: hookDir}},
				Linux: &runtimeapi.LinuxContainerConfig{SecurityContext: &runtimeapi.LinuxContainerSecurityContext{
					NamespaceOptions: &runtimeapi.NamespaceOption{Network: runtimeapi.NamespaceMode_NODE},
				}},
			},
		})
		if err != nil {
			cannot("containerd cannot create a container on this machine: %v\n--- containerd log (tail) ---\n%s", err, e.rt.logTail(30))
		}
		if _, err := cri.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: created.GetContainerId()}); err != nil {
			cannot("containerd cannot start a container on this machine: %v\n--- containerd log (tail) ---\n%s", err, e.rt.logTail(30))
		}
		return created.GetContainerId()
	}
	appID := start("app", 0)
	stubbornID := start("stubborn", 0, "-ignore-term")
	cannot = t.Fatalf
	t.Logf("containers app %s and stubborn %s started", short(appID), short(stubbornID))

	ex := &containerrecreate.Executor{Runtime: cri}
	pod := &corev1.Pod{} // only httpGet/tcpSocket hooks read it
	assertExited := func(id string, want bool) {
		t.Helper()
		got, err := ex.Exited(ctx, "containerd://"+id)
		if err != nil || got != want {
			t.Fatalf("Exited(%s) = %v, %v; want %v", short(id), got, err, want)
		}
	}
	assertExited(appID, false)

	// A container that honours SIGTERM: the hook runs in it first, then it
	// stops well within the grace period and exits 0.
	grace := 20 * time.Second
	stopBegin := time.Now()
	res := ex.Stop(ctx, pod, containerrecreate.StopOrder{
		Name: "app", ContainerID: "containerd://" + appID, GracePeriod: grace,
		PreStop: &v1alpha1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{sleeperPath, "-touch", "/out/prestop"}}},
	})
	took := time.Since(stopBegin)
	if res.HookErr != nil || res.Err != nil {
		t.Fatalf("Stop(app) = hook %v, stop %v", res.HookErr, res.Err)
	}
	if _, err := os.Stat(filepath.Join(hookDir, "prestop")); err != nil {
		t.Errorf("the preStop hook left no trace: %v", err)
	}
	if took >= grace {
		t.Errorf("stopping app took %s: SIGTERM was not delivered or not honoured", took)
	}
	assertExited(appID, true)
	if st := e.containerStatus(ctx, t, appID); st.GetExitCode() != 0 {
		t.Errorf("app exit code %d (%s), want 0 after SIGTERM", st.GetExitCode(), st.GetReason())
	}
	t.Logf("app: preStop hook + SIGTERM stop took %s", took.Round(time.Millisecond))

	// A container that ignores SIGTERM is killed when the grace period runs
	// out (the executor's floor, 2s, as the kubelet's).
	stopBegin = time.Now()
	res = ex.Stop(ctx, pod, containerrecreate.StopOrder{Name: "stubborn", ContainerID: "containerd://" + stubbornID, GracePeriod: time.Second})
	took = time.Since(stopBegin)
	if res.Err != nil {
		t.Fatalf("Stop(stubborn): %v", res.Err)
	}
	if took < 2*time.Second-100*time.Millisecond {
		t.Errorf("stubborn stopped after %s, before the 2s minimum grace", took)
	}
	if st := e.containerStatus(ctx, t, stubbornID); st.GetExitCode() != 137 {
		t.Errorf("stubborn exit code %d (%s), want 137 (SIGKILL)", st.GetExitCode(), st.GetReason())
	}
	t.Logf("stubborn: killed after %s", took.Round(time.Millisecond))

	// Stopping again is harmless, and a container the runtime does not know
	// counts as gone: a daemon restarted between its stop and its status write
	// relies on both.
	if res := ex.Stop(ctx, pod, containerrecreate.StopOrder{Name: "app", ContainerID: "containerd://" + appID, GracePeriod: grace}); res.Err != nil {
		t.Errorf("second Stop(app): %v", res.Err)
	}
	unknown := "0000000000000000000000000000000000000000000000000000000000000000"
	if res := ex.Stop(ctx, pod, containerrecreate.StopOrder{Name: "ghost", ContainerID: "containerd://" + unknown, GracePeriod: grace}); res.Err != nil {
		t.Errorf("Stop(unknown container): %v", res.Err)
	}
	assertExited(unknown, true)

	// The kubelet's half: the next attempt of the container runs under a new ID.
	newID := start("app", 1)
	if newID == appID {
		t.Fatalf("recreated container kept ID %s", appID)
	}
	if st := e.containerStatus(ctx, t, newID); st.GetState() != runtimeapi.ContainerState_CONTAINER_RUNNING || st.GetMetadata().GetAttempt() != 1 {
		t.Errorf("recreated app: state %s attempt %d, want RUNNING attempt 1", st.GetState(), st.GetMetadata().GetAttempt())
	}
	assertExited(newID, false)
}

func (e *env) containerStatus(ctx context.Context, t *testing.T, id string) *runtimeapi.ContainerStatus {
	t.Helper()
	resp, err := e.rt.cri.Runtime.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: id})
	if err != nil {
		t.Fatalf("ContainerStatus %s: %v", short(id), err)
	}
	return resp.GetStatus()
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
