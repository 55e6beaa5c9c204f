package fakecri

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

func TestContainerLifecycle(t *testing.T) {
	r := startRuntime(t)
	ctx := testCtx(t)
	sb := r.runSandbox(t, "ns", "web-0", "uid-1")

	cfg := &runtimeapi.ContainerConfig{Metadata: &runtimeapi.ContainerMetadata{Name: "app"}, Image: &runtimeapi.ImageSpec{Image: "nginx:1.9.1"}}
	_, err := r.rt.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: sb, Config: cfg})
	if status.Code(err) != codes.NotFound {
		t.Fatalf("CreateContainer without the image = %v, want NotFound", err)
	}
	if _, err := r.pull(t, "nginx:1.9.1"); err != nil {
		t.Fatal(err)
	}
	created, err := r.rt.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: sb, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	id := created.ContainerId
	if st := r.containerStatus(t, id, false).Status; st.State != runtimeapi.ContainerState_CONTAINER_CREATED || st.CreatedAt == 0 || st.StartedAt != 0 {
		t.Errorf("after create: %v", st)
	}
	// The same name and attempt cannot be created twice in one sandbox.
	if _, err := r.rt.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: sb, Config: cfg}); status.Code(err) != codes.AlreadyExists {
		t.Errorf("second CreateContainer with the same name and attempt = %v, want AlreadyExists", err)
	}

	if _, err := r.rt.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: id}); err != nil {
		t.Fatal(err)
	}
	st := r.containerStatus(t, id, false).Status
	if st.State != runtimeapi.ContainerState_CONTAINER_RUNNING || st.StartedAt < st.CreatedAt ||
		st.Image.GetImage() != "docker.io/library/nginx:1.9.1" || st.ImageRef != "docker.io/library/nginx@"+identify("docker.io/library/nginx:1.9.1").id {
		t.Errorf("after start: %v", st)
	}
	if _, err := r.rt.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: id}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("starting a running container = %v, want FailedPrecondition", err)
	}

	if _, err := r.rt.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: id, Timeout: 30}); err != nil {
		t.Fatal(err)
	}
	st = r.containerStatus(t, id, false).Status
	if st.State != runtimeapi.ContainerState_CONTAINER_EXITED || st.ExitCode != 0 || st.Reason != "Completed" || st.FinishedAt < st.StartedAt {
		t.Errorf("after stop: %v", st)
	}
	// Stopping again is no error.
	if _, err := r.rt.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: id, Timeout: 30}); err != nil {
		t.Errorf("second StopContainer = %v", err)
	}

	if _, err := r.rt.RemoveContainer(ctx, &runtimeapi.RemoveContainerRequest{ContainerId: id}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.rt.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: id}); status.Code(err) != codes.NotFound {
		t.Errorf("status of a removed container = %v, want NotFound", err)
	}
	if _, err := r.rt.RemoveContainer(ctx, &runtimeapi.RemoveContainerRequest{ContainerId: id}); err != nil {
		t.Errorf("second RemoveContainer = %v, want nil", err)
	}
}

func TestStopContainerGracePeriod(t *testing.T) {
	r := startRuntime(t)
	ctx := testCtx(t)
	if _, err := r.srv.AddImage("busybox"); err != nil {
		t.Fatal(err)
	}
	sb := r.runSandbox(t, "ns", "p", "uid")

	// Exits by itself within the timeout with the configured code.
	r.srv.SetStopBehavior(100*time.Millisecond, 143)
	id := r.runContainer(t, sb, "graceful", "busybox", nil)
	start := time.Now()
	if _, err := r.rt.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: id, Timeout: 10}); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 100*time.Millisecond {
		t.Errorf("stop took %s, want the 100ms stop delay", took)
	}
	if st := r.containerStatus(t, id, false).Status; st.ExitCode != 143 || st.Reason != "Error" {
		t.Errorf("graceful stop: exit %d reason %q, want 143 Error", st.ExitCode, st.Reason)
	}

	// Takes longer than the timeout: killed at the timeout.
	r.srv.SetStopBehavior(time.Hour, 0)
	id = r.runContainer(t, sb, "stubborn", "busybox", nil)
	start = time.Now()
	if _, err := r.rt.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: id, Timeout: 1}); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < time.Second || took > 10*time.Second {
		t.Errorf("kill took %s, want the 1s timeout", took)
	}
	if st := r.containerStatus(t, id, false).Status; st.State != runtimeapi.ContainerState_CONTAINER_EXITED || st.ExitCode != 137 {
		t.Errorf("killed container: %v, want EXITED 137", st)
	}
}

func TestListContainersFilters(t *testing.T) {
	r := startRuntime(t)
	ctx := testCtx(t)
	if _, err := r.srv.AddImage("nginx"); err != nil {
		t.Fatal(err)
	}
	sbA := r.runSandbox(t, "ns", "a", "uid-a")
	sbB := r.runSandbox(t, "ns", "b", "uid-b")
	a1 := r.runContainer(t, sbA, "app", "nginx", map[string]string{"io.kubernetes.container.name": "app", "io.kubernetes.pod.uid": "uid-a"})
	a2 := r.runContainer(t, sbA, "sidecar", "nginx", map[string]string{"io.kubernetes.container.name": "sidecar", "io.kubernetes.pod.uid": "uid-a"})
	b1 := r.runContainer(t, sbB, "app", "nginx", map[string]string{"io.kubernetes.container.name": "app", "io.kubernetes.pod.uid": "uid-b"})
	if _, err := r.rt.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: a2, Timeout: 1}); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		filter *runtimeapi.ContainerFilter
		want   []string
	}{
		{"no filter", nil, []string{a1, a2, b1}},
		{"id", &runtimeapi.ContainerFilter{Id: b1}, []string{b1}},
		{"id prefix", &runtimeapi.ContainerFilter{Id: a1[:12]}, []string{a1}},
		{"running", &runtimeapi.ContainerFilter{State: &runtimeapi.ContainerStateValue{State: runtimeapi.ContainerState_CONTAINER_RUNNING}}, []string{a1, b1}},
		{"exited", &runtimeapi.ContainerFilter{State: &runtimeapi.ContainerStateValue{State: runtimeapi.ContainerState_CONTAINER_EXITED}}, []string{a2}},
		{"sandbox", &runtimeapi.ContainerFilter{PodSandboxId: sbA}, []string{a1, a2}},
		{"label", &runtimeapi.ContainerFilter{LabelSelector: map[string]string{"io.kubernetes.container.name": "app"}}, []string{a1, b1}},
		{"labels and state", &runtimeapi.ContainerFilter{
			LabelSelector: map[string]string{"io.kubernetes.pod.uid": "uid-a"},
			State:         &runtimeapi.ContainerStateValue{State: runtimeapi.ContainerState_CONTAINER_RUNNING},
		}, []string{a1}},
		{"label mismatch", &runtimeapi.ContainerFilter{LabelSelector: map[string]string{"io.kubernetes.pod.uid": "nobody"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := r.rt.ListContainers(ctx, &runtimeapi.ListContainersRequest{Filter: tt.filter})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range resp.Containers {
				got = append(got, c.Id)
			}
			if !equalStrings(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}

	// Sandboxes filter the same way; removing one removes its containers.
	list, err := r.rt.ListPodSandbox(ctx, &runtimeapi.ListPodSandboxRequest{Filter: &runtimeapi.PodSandboxFilter{
		LabelSelector: map[string]string{"io.kubernetes.pod.name": "b"},
	}})
	if err != nil || len(list.Items) != 1 || list.Items[0].Id != sbB || list.Items[0].Metadata.Uid != "uid-b" {
		t.Fatalf("ListPodSandbox(label b) = %v, %v", list, err)
	}
	if _, err := r.rt.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: sbB}); err != nil {
		t.Fatal(err)
	}
	if st := r.containerStatus(t, b1, false).Status; st.State != runtimeapi.ContainerState_CONTAINER_EXITED {
		t.Errorf("container of a stopped sandbox is %v", st.State)
	}
	sbst, err := r.rt.PodSandboxStatus(ctx, &runtimeapi.PodSandboxStatusRequest{PodSandboxId: sbB})
	if err != nil || sbst.Status.State != runtimeapi.PodSandboxState_SANDBOX_NOTREADY {
		t.Errorf("PodSandboxStatus after stop = %v, %v", sbst, err)
	}
	if _, err := r.rt.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: sbB}); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.srv.Container(b1); ok {
		t.Error("container of a removed sandbox still exists")
	}
	if _, err := r.rt.PodSandboxStatus(ctx, &runtimeapi.PodSandboxStatusRequest{PodSandboxId: sbB}); status.Code(err) != codes.NotFound {
		t.Errorf("PodSandboxStatus of a removed sandbox = %v, want NotFound", err)
	}
	if _, err := r.rt.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: sbB}); err != nil {
		t.Errorf("second RemovePodSandbox = %v, want nil", err)
	}
	ready, err := r.rt.ListPodSandbox(ctx, &runtimeapi.ListPodSandboxRequest{Filter: &runtimeapi.PodSandboxFilter{
		State: &runtimeapi.PodSandboxStateValue{State: runtimeapi.PodSandboxState_SANDBOX_READY},
	}})
	if err != nil || len(ready.Items) != 1 || ready.Items[0].Id != sbA {
		t.Errorf("ready sandboxes = %v, %v; want only %s", ready, err, sbA)
	}
}

func TestVerboseContainerStatusHasEnvInContainerdShape(t *testing.T) {
	r := startRuntime(t)
	if _, err := r.srv.AddImage("nginx"); err != nil {
		t.Fatal(err)
	}
	sb := r.runSandbox(t, "ns", "p", "uid")
	id := r.runContainer(t, sb, "app", "nginx", nil, "POD_NAME", "p", "VERSION", "v2", "EMPTY", "")

	if info := r.containerStatus(t, id, false).Info; len(info) != 0 {
		t.Errorf("non-verbose status has info %v", info)
	}
	raw := r.containerStatus(t, id, true).Info["info"]
	// Decoded the way a client of containerd decodes it.
	var info struct {
		SandboxID string `json:"sandboxID"`
		Pid       int    `json:"pid"`
		Config    struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
			Envs []struct {
				Key   string `json:"key"`
				Value string `json:"value"`
			} `json:"envs"`
		} `json:"config"`
		RuntimeSpec struct {
			Process struct {
				Env []string `json:"env"`
			} `json:"process"`
		} `json:"runtimeSpec"`
	}
	if err := json.Unmarshal([]byte(raw), &info); err != nil {
		t.Fatalf("info[\"info\"] is not JSON: %v\n%s", err, raw)
	}
	if info.SandboxID != sb || info.Pid == 0 || info.Config.Metadata.Name != "app" {
		t.Errorf("info = %+v", info)
	}
	env := map[string]string{}
	for _, e := range info.Config.Envs {
		env[e.Key] = e.Value
	}
	if len(env) != 3 || env["POD_NAME"] != "p" || env["VERSION"] != "v2" || env["EMPTY"] != "" {
		t.Errorf("config.envs = %+v", info.Config.Envs)
	}
	if want := []string{"POD_NAME=p", "VERSION=v2", "EMPTY="}; !equalStrings(info.RuntimeSpec.Process.Env, want) {
		t.Errorf("runtimeSpec.process.env = %v, want %v", info.RuntimeSpec.Process.Env, want)
	}
}

func TestExecSync(t *testing.T) {
	r := startRuntime(t)
	ctx := testCtx(t)
	if _, err := r.srv.AddImage("nginx"); err != nil {
		t.Fatal(err)
	}
	sb := r.runSandbox(t, "ns", "p", "uid")
	id := r.runContainer(t, sb, "app", "nginx", nil)

	resp, err := r.rt.ExecSync(ctx, &runtimeapi.ExecSyncRequest{ContainerId: id, Cmd: []string{"/bin/sh", "-c", "nginx -s quit"}, Timeout: 5})
	if err != nil || resp.ExitCode != 0 {
		t.Fatalf("ExecSync = %v, %v; want exit 0", resp, err)
	}
	r.srv.SetExecHandler(func(_ context.Context, c Container, cmd []string) (ExecResult, error) {
		return ExecResult{Stdout: []byte(c.Name + ":" + cmd[0]), ExitCode: 3}, nil
	})
	resp, err = r.rt.ExecSync(ctx, &runtimeapi.ExecSyncRequest{ContainerId: id, Cmd: []string{"check"}})
	if err != nil || resp.ExitCode != 3 || string(resp.Stdout) != "app:check" {
		t.Fatalf("ExecSync with handler = %v, %v", resp, err)
	}
	execs := r.srv.Execs()
	if len(execs) != 2 || execs[0].ContainerID != id || !equalStrings(execs[0].Cmd, []string{"/bin/sh", "-c", "nginx -s quit"}) || execs[1].ExitCode != 3 {
		t.Errorf("Execs = %+v", execs)
	}

	// A handler slower than the request's timeout ends with DeadlineExceeded.
	r.srv.SetExecHandler(func(ctx context.Context, _ Container, _ []string) (ExecResult, error) {
		<-ctx.Done()
		return ExecResult{}, ctx.Err()
	})
	if _, err := r.rt.ExecSync(ctx, &runtimeapi.ExecSyncRequest{ContainerId: id, Cmd: []string{"sleep"}, Timeout: 1}); status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("slow exec = %v, want DeadlineExceeded", err)
	}

	if _, err := r.rt.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: id, Timeout: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.rt.ExecSync(ctx, &runtimeapi.ExecSyncRequest{ContainerId: id, Cmd: []string{"true"}}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("exec in an exited container = %v, want FailedPrecondition", err)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
