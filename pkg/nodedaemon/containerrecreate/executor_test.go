package containerrecreate

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2/ktesting"

	"github.com/kruise-native/kruise-native/internal/fakecri"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
)

// runtimeWithContainer serves a fake runtime with one running container and returns
// it, a CRI client and the container's pod status ID.
func runtimeWithContainer(t *testing.T) (*fakecri.Server, *criclient.Client, string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "crr") // short: unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	srv := fakecri.NewServer()
	if err := srv.Start(filepath.Join(dir, "cri.sock")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	cli, err := criclient.New(srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cli.Close() })
	ctx := context.Background()
	sb, err := srv.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: &runtimeapi.PodSandboxConfig{
		Metadata: &runtimeapi.PodSandboxMetadata{Name: "web-0", Namespace: "ns", Uid: "uid-1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.AddImage("app:v1"); err != nil {
		t.Fatal(err)
	}
	created, err := srv.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: sb.PodSandboxId, Config: &runtimeapi.ContainerConfig{
		Metadata: &runtimeapi.ContainerMetadata{Name: "app"}, Image: &runtimeapi.ImageSpec{Image: "app:v1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: created.ContainerId}); err != nil {
		t.Fatal(err)
	}
	return srv, cli, fakecri.ContainerIDPrefix + created.ContainerId
}

func runtimeState(t *testing.T, srv *fakecri.Server, id string) runtimeapi.ContainerState {
	t.Helper()
	c, ok := srv.Container(criclient.SplitContainerID(id))
	if !ok {
		t.Fatalf("container %s gone", id)
	}
	return c.State
}

func TestExecutorExecHookThenStop(t *testing.T) {
	srv, cli, id := runtimeWithContainer(t)
	_, ctx := ktesting.NewTestContext(t)
	e := &Executor{Runtime: cli.Runtime}
	if gone, err := e.Exited(ctx, id); err != nil || gone {
		t.Fatalf("Exited before the stop = %v, %v; want false", gone, err)
	}
	res := e.Stop(ctx, &corev1.Pod{}, StopOrder{Name: "app", ContainerID: id, GracePeriod: 5 * time.Second,
		PreStop: &v1alpha1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"/bin/sh", "-c", "nginx -s quit"}}}})
	if res.HookErr != nil || res.Err != nil {
		t.Fatalf("Stop = %+v", res)
	}
	execs := srv.Execs()
	if len(execs) != 1 || strings.Join(execs[0].Cmd, " ") != "/bin/sh -c nginx -s quit" {
		t.Errorf("execs = %+v, want the preStop command once", execs)
	}
	if s := runtimeState(t, srv, id); s != runtimeapi.ContainerState_CONTAINER_EXITED {
		t.Errorf("state after Stop = %s, want EXITED", s)
	}
	if gone, err := e.Exited(ctx, id); err != nil || !gone {
		t.Errorf("Exited after the stop = %v, %v; want true", gone, err)
	}
	if gone, err := e.Exited(ctx, "fakecri://nope"); err != nil || !gone {
		t.Errorf("Exited of an unknown container = %v, %v; want true", gone, err)
	}
}

func TestExecutorFailingHookStillStops(t *testing.T) {
	srv, cli, id := runtimeWithContainer(t)
	srv.SetExecHandler(func(context.Context, fakecri.Container, []string) (fakecri.ExecResult, error) {
		return fakecri.ExecResult{ExitCode: 3, Stderr: []byte("no such process\n")}, nil
	})
	_, ctx := ktesting.NewTestContext(t)
	res := (&Executor{Runtime: cli.Runtime}).Stop(ctx, &corev1.Pod{}, StopOrder{Name: "app", ContainerID: id, GracePeriod: time.Second,
		PreStop: &v1alpha1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"quit"}}}})
	if res.Err != nil || res.HookErr == nil || !strings.Contains(res.HookErr.Error(), `exited with 3: no such process`) {
		t.Fatalf("Stop = %+v, want a hook error with the exit code and stderr, and a stop", res)
	}
	if s := runtimeState(t, srv, id); s != runtimeapi.ContainerState_CONTAINER_EXITED {
		t.Errorf("state = %s, want EXITED", s)
	}
}

func TestExecutorHTTPAndTCPHooks(t *testing.T) {
	var hits atomic.Int32
	var gotPath, gotHeader string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		gotPath, gotHeader = r.URL.RequestURI(), r.Header.Get("X-Drain")
	}))
	defer ts.Close()
	host, portStr, _ := net.SplitHostPort(ts.Listener.Addr().String())
	port, _ := strconv.Atoi(portStr)
	pod := &corev1.Pod{Status: corev1.PodStatus{PodIP: host}}
	ports := []corev1.ContainerPort{{Name: "http", ContainerPort: int32(port)}}
	_, ctx := ktesting.NewTestContext(t)

	srv, cli, id := runtimeWithContainer(t)
	e := &Executor{Runtime: cli.Runtime}
	res := e.Stop(ctx, pod, StopOrder{Name: "app", ContainerID: id, GracePeriod: 5 * time.Second, Ports: ports,
		PreStop: &v1alpha1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/quit?now=1", Port: intstr.FromString("http"),
			HTTPHeaders: []corev1.HTTPHeader{{Name: "X-Drain", Value: "yes"}}}}})
	if res.Err != nil || res.HookErr != nil {
		t.Fatalf("Stop = %+v", res)
	}
	if hits.Load() != 1 || gotPath != "/quit?now=1" || gotHeader != "yes" {
		t.Errorf("hook request: hits %d path %q header %q", hits.Load(), gotPath, gotHeader)
	}
	if s := runtimeState(t, srv, id); s != runtimeapi.ContainerState_CONTAINER_EXITED {
		t.Errorf("state = %s, want EXITED", s)
	}

	// tcpSocket to the same listener; a named port the container lacks fails the hook.
	if err := e.runHook(ctx, pod, StopOrder{Ports: ports, PreStop: &v1alpha1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(int32(port))}}}); err != nil {
		t.Errorf("tcp hook: %v", err)
	}
	err := e.runHook(ctx, pod, StopOrder{Ports: ports, PreStop: &v1alpha1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromString("admin")}}})
	if err == nil || !strings.Contains(err.Error(), `port "admin" is not a port of the container`) {
		t.Errorf("unknown named port: %v", err)
	}
}

func TestExecutorHookBoundedByGrace(t *testing.T) {
	srv, cli, id := runtimeWithContainer(t)
	srv.SetExecHandler(func(ctx context.Context, _ fakecri.Container, _ []string) (fakecri.ExecResult, error) {
		<-ctx.Done() // a hook that never ends by itself
		return fakecri.ExecResult{}, ctx.Err()
	})
	_, ctx := ktesting.NewTestContext(t)
	start := time.Now()
	res := (&Executor{Runtime: cli.Runtime}).Stop(ctx, &corev1.Pod{}, StopOrder{Name: "app", ContainerID: id, GracePeriod: time.Second,
		PreStop: &v1alpha1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"sleep", "inf"}}}})
	if res.HookErr == nil || res.Err != nil {
		t.Fatalf("Stop = %+v, want a timed-out hook and a stop", res)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Stop took %s with a 1s grace period", d)
	}
	if s := runtimeState(t, srv, id); s != runtimeapi.ContainerState_CONTAINER_EXITED {
		t.Errorf("state = %s, want EXITED", s)
	}
}
