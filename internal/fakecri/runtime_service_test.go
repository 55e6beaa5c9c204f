package fakecri

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	cri "k8s.io/cri-client/pkg"
)

func TestVersionStatusAndUnimplemented(t *testing.T) {
	r := startRuntime(t)
	ctx := testCtx(t)
	v, err := r.rt.Version(ctx, &runtimeapi.VersionRequest{})
	if err != nil || v.RuntimeName != "fakecri" || v.RuntimeApiVersion != "v1" || v.RuntimeVersion == "" {
		t.Errorf("Version = %v, %v", v, err)
	}
	st, err := r.rt.Status(ctx, &runtimeapi.StatusRequest{})
	if err != nil || len(st.Status.Conditions) != 2 || !st.Status.Conditions[0].Status || !st.Status.Conditions[1].Status {
		t.Errorf("Status = %v, %v", st, err)
	}
	if _, err := r.rt.ListContainerStats(ctx, &runtimeapi.ListContainerStatsRequest{}); status.Code(err) != codes.Unimplemented {
		t.Errorf("ListContainerStats = %v, want Unimplemented", err)
	}
	if _, err := r.rt.Exec(ctx, &runtimeapi.ExecRequest{}); status.Code(err) != codes.Unimplemented {
		t.Errorf("Exec = %v, want Unimplemented", err)
	}
}

// The remote CRI client kubelet and the node daemon use works against the server,
// including its streaming list calls.
func TestRemoteCRIClient(t *testing.T) {
	r := startRuntime(t)
	ctx := testCtx(t)
	images, err := cri.NewRemoteImageService(ctx, r.endpoint, 10*time.Second, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	runtime, err := cri.NewRemoteRuntimeService(ctx, r.endpoint, 10*time.Second, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = runtime.Close(ctx) })

	ref, err := images.PullImage(ctx, &runtimeapi.ImageSpec{Image: "nginx:1.25"}, &runtimeapi.AuthConfig{Username: "u", Password: "p"}, nil)
	if err != nil || ref != identify("docker.io/library/nginx:1.25").id {
		t.Fatalf("PullImage = %q, %v", ref, err)
	}
	if p := r.srv.Pulls(); len(p) != 1 || p[0].Auth == nil || p[0].Auth.Username != "u" {
		t.Errorf("pull records = %+v", p)
	}
	list, err := images.ListImages(ctx, nil)
	if err != nil || len(list) != 1 {
		t.Errorf("ListImages = %v, %v", list, err)
	}

	sb := r.runSandbox(t, "ns", "p", "uid")
	id := r.runContainer(t, sb, "app", "nginx:1.25", map[string]string{"io.kubernetes.container.name": "app"})
	sandboxes, err := runtime.ListPodSandbox(ctx, nil)
	if err != nil || len(sandboxes) != 1 || sandboxes[0].Id != sb {
		t.Errorf("ListPodSandbox = %v, %v", sandboxes, err)
	}
	containers, err := runtime.ListContainers(ctx, &runtimeapi.ContainerFilter{LabelSelector: map[string]string{"io.kubernetes.container.name": "app"}})
	if err != nil || len(containers) != 1 || containers[0].Id != id {
		t.Errorf("ListContainers = %v, %v", containers, err)
	}
	if err := runtime.StopContainer(ctx, id, 5); err != nil {
		t.Fatal(err)
	}
	st, err := runtime.ContainerStatus(ctx, id, true)
	if err != nil || st.Status.State != runtimeapi.ContainerState_CONTAINER_EXITED || st.Info["info"] == "" {
		t.Errorf("ContainerStatus = %v, %v", st, err)
	}
}

func TestSubscribeDeliversEventsInOrder(t *testing.T) {
	r := startRuntime(t)
	events, cancel := r.srv.Subscribe()
	defer cancel()
	if _, err := r.pull(t, "nginx"); err != nil {
		t.Fatal(err)
	}
	sb := r.runSandbox(t, "ns", "p", "uid")
	id := r.runContainer(t, sb, "app", "nginx", map[string]string{"io.kubernetes.pod.name": "p"})
	if err := r.srv.ExitContainer(id, 1, ""); err != nil {
		t.Fatal(err)
	}
	want := []EventType{EventImagePulled, EventSandboxCreated, EventContainerCreated, EventContainerStarted, EventContainerExited}
	timeout := time.After(10 * time.Second)
	for i, w := range want {
		select {
		case ev := <-events:
			if ev.Type != w {
				t.Fatalf("event %d = %s, want %s", i, ev.Type, w)
			}
			if ev.Type == EventContainerExited && (ev.ID != id || ev.SandboxID != sb || ev.Labels["io.kubernetes.pod.name"] != "p") {
				t.Errorf("exit event = %+v", ev)
			}
		case <-timeout:
			t.Fatalf("event %d (%s) not delivered", i, w)
		}
	}
	if c, _ := r.srv.Container(id); c.ExitCode != 1 || c.Reason != "Error" {
		t.Errorf("crashed container: exit %d reason %q", c.ExitCode, c.Reason)
	}
	cancel()
	// The channel closes once the subscription ends.
	for range events {
	}
}

func TestGetContainerEventsStream(t *testing.T) {
	r := startRuntime(t)
	ctx := testCtx(t)
	stream, err := r.rt.GetContainerEvents(ctx, &runtimeapi.GetEventsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.srv.AddImage("nginx"); err != nil {
		t.Fatal(err)
	}
	// The stream may not be subscribed yet when the first call lands: create containers
	// until one event arrives.
	sb := r.runSandbox(t, "ns", "p", "uid")
	go func() {
		for i := 0; ctx.Err() == nil && i < 100; i++ {
			_, _ = r.rt.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: sb, Config: &runtimeapi.ContainerConfig{
				Metadata: &runtimeapi.ContainerMetadata{Name: "c", Attempt: uint32(i)}, Image: &runtimeapi.ImageSpec{Image: "nginx"},
			}})
			time.Sleep(50 * time.Millisecond)
		}
	}()
	ev, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if ev.ContainerEventType != runtimeapi.ContainerEventType_CONTAINER_CREATED_EVENT || ev.ContainerId == "" || len(ev.ContainersStatuses) != 1 {
		t.Errorf("event = %v", ev)
	}
}

func TestServeStopsWithContextAndCanServeAgain(t *testing.T) {
	dir, err := os.MkdirTemp("", "fakecri")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "sub", "cri.sock")
	// A stale socket file from an earlier run does not stop a new one.
	if err := os.MkdirAll(filepath.Dir(sock), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sock, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := NewServer()
	if _, err := srv.AddImage("nginx"); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ctx, sock) }()
		var images []*runtimeapi.Image
		deadline := time.Now().Add(10 * time.Second)
		for {
			if srv.Endpoint() != "" {
				svc, err := cri.NewRemoteImageService(ctx, srv.Endpoint(), 5*time.Second, nil, false)
				if err == nil {
					if images, err = svc.ListImages(ctx, nil); err == nil {
						break
					}
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: server not answering", round)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if len(images) != 1 {
			t.Errorf("round %d: %d images, want the 1 kept across restarts of serving", round, len(images))
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("round %d: Serve = %v", round, err)
		}
		if _, err := os.Stat(sock); !os.IsNotExist(err) {
			t.Errorf("round %d: socket left behind (%v)", round, err)
		}
		if srv.Endpoint() != "" {
			t.Errorf("round %d: endpoint %q after stop", round, srv.Endpoint())
		}
	}
}
