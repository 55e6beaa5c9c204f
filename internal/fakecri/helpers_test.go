package fakecri

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// testRuntime is a Server served on a unix socket with raw CRI clients connected to it
// over gRPC, the way the node daemon talks to containerd.
type testRuntime struct {
	srv      *Server
	endpoint string
	rt       runtimeapi.RuntimeServiceClient
	img      runtimeapi.ImageServiceClient
}

func startRuntime(t *testing.T) *testRuntime {
	t.Helper()
	// Unix socket paths are limited to 108 bytes; t.TempDir() paths carry the test name
	// and can be longer.
	dir, err := os.MkdirTemp("", "fakecri")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	sock := filepath.Join(dir, "cri.sock")
	srv := NewServer()
	if err := srv.Start(sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("unix://"+sock, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &testRuntime{
		srv:      srv,
		endpoint: srv.Endpoint(),
		rt:       runtimeapi.NewRuntimeServiceClient(conn),
		img:      runtimeapi.NewImageServiceClient(conn),
	}
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func (r *testRuntime) pull(t *testing.T, image string) (*runtimeapi.PullImageResponse, error) {
	t.Helper()
	return r.img.PullImage(testCtx(t), &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: image}})
}

// runSandbox creates a sandbox for pod ns/name with kubelet's labels.
func (r *testRuntime) runSandbox(t *testing.T, ns, name, uid string) string {
	t.Helper()
	resp, err := r.rt.RunPodSandbox(testCtx(t), &runtimeapi.RunPodSandboxRequest{Config: &runtimeapi.PodSandboxConfig{
		Metadata: &runtimeapi.PodSandboxMetadata{Name: name, Namespace: ns, Uid: uid},
		Labels:   map[string]string{"io.kubernetes.pod.name": name, "io.kubernetes.pod.namespace": ns, "io.kubernetes.pod.uid": uid},
	}})
	if err != nil {
		t.Fatalf("RunPodSandbox: %v", err)
	}
	return resp.PodSandboxId
}

// runContainer creates and starts a container with env.
func (r *testRuntime) runContainer(t *testing.T, sandboxID, name, image string, labels map[string]string, env ...string) string {
	t.Helper()
	ctx := testCtx(t)
	cfg := &runtimeapi.ContainerConfig{
		Metadata: &runtimeapi.ContainerMetadata{Name: name},
		Image:    &runtimeapi.ImageSpec{Image: image},
		Labels:   labels,
	}
	for i := 0; i+1 < len(env); i += 2 {
		cfg.Envs = append(cfg.Envs, &runtimeapi.KeyValue{Key: env[i], Value: []byte(env[i+1])})
	}
	created, err := r.rt.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: sandboxID, Config: cfg})
	if err != nil {
		t.Fatalf("CreateContainer: %v", err)
	}
	if _, err := r.rt.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: created.ContainerId}); err != nil {
		t.Fatalf("StartContainer: %v", err)
	}
	return created.ContainerId
}

func (r *testRuntime) containerStatus(t *testing.T, id string, verbose bool) *runtimeapi.ContainerStatusResponse {
	t.Helper()
	resp, err := r.rt.ContainerStatus(testCtx(t), &runtimeapi.ContainerStatusRequest{ContainerId: id, Verbose: verbose})
	if err != nil {
		t.Fatalf("ContainerStatus(%s): %v", id, err)
	}
	return resp
}
