package fakecri

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

func TestPullImageStoresNormalizedImage(t *testing.T) {
	r := startRuntime(t)
	resp, err := r.pull(t, "nginx:1.9.1")
	if err != nil {
		t.Fatalf("PullImage: %v", err)
	}
	want := identify("docker.io/library/nginx:1.9.1")
	if resp.ImageRef != want.id {
		t.Errorf("ImageRef = %s, want %s", resp.ImageRef, want.id)
	}
	// Found under every spelling of the reference and by ID.
	for _, name := range []string{"nginx:1.9.1", "docker.io/library/nginx:1.9.1", want.id, strings.TrimPrefix(want.id, "sha256:")} {
		st, err := r.img.ImageStatus(testCtx(t), &runtimeapi.ImageStatusRequest{Image: &runtimeapi.ImageSpec{Image: name}})
		if err != nil {
			t.Fatalf("ImageStatus(%s): %v", name, err)
		}
		img := st.GetImage()
		if img.GetId() != want.id || img.GetSize() != want.size ||
			len(img.GetRepoTags()) != 1 || img.GetRepoTags()[0] != "docker.io/library/nginx:1.9.1" ||
			len(img.GetRepoDigests()) != 1 || !strings.HasPrefix(img.GetRepoDigests()[0], "docker.io/library/nginx@sha256:") {
			t.Errorf("ImageStatus(%s) = %v", name, img)
		}
	}
	// A missing image is an empty answer, not an error.
	st, err := r.img.ImageStatus(testCtx(t), &runtimeapi.ImageStatusRequest{Image: &runtimeapi.ImageSpec{Image: "nginx:2"}})
	if err != nil || st.GetImage() != nil {
		t.Errorf("ImageStatus(missing) = %v, %v; want empty, nil", st, err)
	}
	// Pulling again keeps one image.
	if _, err := r.pull(t, "docker.io/library/nginx:1.9.1"); err != nil {
		t.Fatal(err)
	}
	if n := len(r.srv.Images()); n != 1 {
		t.Errorf("%d images after pulling one reference twice, want 1", n)
	}
}

func TestListAndRemoveImages(t *testing.T) {
	r := startRuntime(t)
	for _, image := range []string{"nginx", "busybox:1.36", "registry.k8s.io/pause:3.10"} {
		if _, err := r.pull(t, image); err != nil {
			t.Fatal(err)
		}
	}
	list, err := r.img.ListImages(testCtx(t), &runtimeapi.ListImagesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, img := range list.Images {
		refs = append(refs, img.GetRepoTags()...)
	}
	if want := "docker.io/library/busybox:1.36 docker.io/library/nginx:latest registry.k8s.io/pause:3.10"; strings.Join(refs, " ") != want {
		t.Errorf("ListImages tags = %v, want %s", refs, want)
	}
	filtered, err := r.img.ListImages(testCtx(t), &runtimeapi.ListImagesRequest{Filter: &runtimeapi.ImageFilter{Image: &runtimeapi.ImageSpec{Image: "nginx"}}})
	if err != nil || len(filtered.Images) != 1 || filtered.Images[0].RepoTags[0] != "docker.io/library/nginx:latest" {
		t.Errorf("ListImages(filter nginx) = %v, %v", filtered, err)
	}

	// Remove by reference, by ID, and a missing one (no error: CRI is idempotent).
	if _, err := r.img.RemoveImage(testCtx(t), &runtimeapi.RemoveImageRequest{Image: &runtimeapi.ImageSpec{Image: "nginx"}}); err != nil {
		t.Fatal(err)
	}
	busybox := identify("docker.io/library/busybox:1.36").id
	if _, err := r.img.RemoveImage(testCtx(t), &runtimeapi.RemoveImageRequest{Image: &runtimeapi.ImageSpec{Image: busybox}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.img.RemoveImage(testCtx(t), &runtimeapi.RemoveImageRequest{Image: &runtimeapi.ImageSpec{Image: "nosuch:1"}}); err != nil {
		t.Errorf("RemoveImage(missing) = %v, want nil", err)
	}
	if imgs := r.srv.Images(); len(imgs) != 1 || imgs[0].Ref != "registry.k8s.io/pause:3.10" {
		t.Errorf("images left = %v, want only pause", imgs)
	}
	fs, err := r.img.ImageFsInfo(testCtx(t), &runtimeapi.ImageFsInfoRequest{})
	if err != nil || len(fs.ImageFilesystems) != 1 || fs.ImageFilesystems[0].UsedBytes.Value != identify("registry.k8s.io/pause:3.10").size {
		t.Errorf("ImageFsInfo = %v, %v", fs, err)
	}
}

func TestPullBehaviors(t *testing.T) {
	tests := []struct {
		name      string
		setup     func(*Server)
		image     string
		wantCodes []codes.Code // one per attempt
		wantMsg   string       // in every failing attempt's message
	}{
		{
			name:      "default: every image exists",
			setup:     func(*Server) {},
			image:     "anything/at-all:v1",
			wantCodes: []codes.Code{codes.OK},
		},
		{
			name: "injected error with message",
			setup: func(s *Server) {
				s.SetPullBehavior("nginx:bad", PullBehavior{Message: "pull access denied, repository does not exist or may require authorization"})
			},
			image:     "docker.io/library/nginx:bad",
			wantCodes: []codes.Code{codes.Unknown, codes.Unknown},
			wantMsg:   `failed to pull and unpack image "docker.io/library/nginx:bad": pull access denied`,
		},
		{
			name: "injected error with code",
			setup: func(s *Server) {
				s.SetPullBehavior("private/*", PullBehavior{Code: codes.PermissionDenied, Message: "unauthorized: authentication required"})
			},
			image:     "private/app:1",
			wantCodes: []codes.Code{codes.PermissionDenied},
			wantMsg:   "unauthorized: authentication required",
		},
		{
			name:      "fail first two attempts, then succeed",
			setup:     func(s *Server) { s.SetPullBehavior("*/flaky:*", PullBehavior{FailFirst: 2}) },
			image:     "flaky:1",
			wantCodes: []codes.Code{codes.Unknown, codes.Unknown, codes.OK, codes.OK},
			wantMsg:   "connection reset by peer",
		},
		{
			name:      "not in the registry",
			setup:     func(s *Server) { s.SetPullBehavior("nosuch", PullBehavior{NotFound: true}) },
			image:     "nosuch:latest",
			wantCodes: []codes.Code{codes.NotFound},
			wantMsg:   `failed to resolve reference "docker.io/library/nosuch:latest": docker.io/library/nosuch:latest: not found`,
		},
		{
			name:      "registry holds only listed images",
			setup:     func(s *Server) { s.SetRegistryImages([]string{"nginx:*", "docker.io/library/busybox:1.36"}) },
			image:     "redis:7",
			wantCodes: []codes.Code{codes.NotFound},
			wantMsg:   "not found",
		},
		{
			name:      "registry list admits listed image",
			setup:     func(s *Server) { s.SetRegistryImages([]string{"nginx:*", "busybox:1.36"}) },
			image:     "busybox:1.36",
			wantCodes: []codes.Code{codes.OK},
		},
		{
			name: "exact rule wins over a later glob",
			setup: func(s *Server) {
				s.SetPullBehavior("nginx:ok", PullBehavior{})
				s.SetPullBehavior("*nginx*", PullBehavior{Message: "boom"})
			},
			image:     "nginx:ok",
			wantCodes: []codes.Code{codes.OK},
		},
		{
			name:      "unparsable reference",
			setup:     func(*Server) {},
			image:     "Not A Reference",
			wantCodes: []codes.Code{codes.InvalidArgument},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := startRuntime(t)
			tt.setup(r.srv)
			for i, want := range tt.wantCodes {
				_, err := r.pull(t, tt.image)
				if got := status.Code(err); got != want {
					t.Fatalf("attempt %d: code %v (%v), want %v", i+1, got, err, want)
				}
				if err != nil && !strings.Contains(status.Convert(err).Message(), tt.wantMsg) {
					t.Errorf("attempt %d: message %q does not contain %q", i+1, status.Convert(err).Message(), tt.wantMsg)
				}
				if err == nil && !r.srv.HasImage(tt.image) {
					t.Errorf("attempt %d succeeded but the image is not stored", i+1)
				}
				if err != nil && r.srv.HasImage(tt.image) {
					t.Errorf("attempt %d failed but the image is stored", i+1)
				}
			}
			if got := r.srv.PullAttempts(tt.image); got != len(tt.wantCodes) {
				t.Errorf("PullAttempts = %d, want %d", got, len(tt.wantCodes))
			}
		})
	}
}

// A private image pulls only with its registry's credentials.
func TestPullPrivateImage(t *testing.T) {
	r := startRuntime(t)
	r.srv.SetPullBehavior("private.example.com/*", PullBehavior{Credentials: &Credentials{Username: "robot", Password: "s3cret"}})
	for _, tc := range []struct {
		name string
		auth *runtimeapi.AuthConfig
		want codes.Code
	}{
		{"anonymous", nil, codes.Unknown},
		{"wrong password", &runtimeapi.AuthConfig{Username: "robot", Password: "guess"}, codes.Unknown},
		{"the registry's credentials", &runtimeapi.AuthConfig{Username: "robot", Password: "s3cret"}, codes.OK},
	} {
		_, err := r.img.PullImage(testCtx(t), &runtimeapi.PullImageRequest{
			Image: &runtimeapi.ImageSpec{Image: "private.example.com/team/app:v1"}, Auth: tc.auth})
		if got := status.Code(err); got != tc.want {
			t.Errorf("%s: code %v (%v), want %v", tc.name, got, err, tc.want)
		}
		if err != nil && !strings.Contains(err.Error(), "authorization failed") {
			t.Errorf("%s: message %q does not say the registry refused", tc.name, err)
		}
	}
}

func TestPullLatencyHonoursClientDeadline(t *testing.T) {
	r := startRuntime(t)
	r.srv.SetPullBehavior("slow:*", PullBehavior{Latency: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := r.img.PullImage(ctx, &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: "slow:1"}})
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("PullImage = %v, want DeadlineExceeded", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("pull returned after %s, want about the 300ms deadline", elapsed)
	}
	// The server side saw the cancellation too: the attempt ends, with an error, and
	// nothing is stored.
	deadline := time.Now().Add(5 * time.Second)
	for {
		pulls := r.srv.Pulls()
		if len(pulls) == 1 && !pulls[0].End.IsZero() {
			if pulls[0].Err == nil || r.srv.HasImage("slow:1") {
				t.Fatalf("aborted pull recorded as %+v, image stored %v", pulls[0], r.srv.HasImage("slow:1"))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not end the aborted pull: %+v", pulls)
		}
		time.Sleep(10 * time.Millisecond)
	}

	// A latency shorter than the deadline just delays the pull.
	r.srv.SetPullBehavior("slow:*", PullBehavior{Latency: 200 * time.Millisecond})
	start = time.Now()
	if _, err := r.pull(t, "slow:2"); err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed < 200*time.Millisecond {
		t.Errorf("pull took %s, want at least the 200ms latency", elapsed)
	}
}

func TestPullRecordsAuthAndPod(t *testing.T) {
	r := startRuntime(t)
	_, err := r.img.PullImage(testCtx(t), &runtimeapi.PullImageRequest{
		Image:         &runtimeapi.ImageSpec{Image: "private.example.com/team/app:v2"},
		Auth:          &runtimeapi.AuthConfig{Username: "robot", Password: "s3cret", ServerAddress: "private.example.com"},
		SandboxConfig: &runtimeapi.PodSandboxConfig{Metadata: &runtimeapi.PodSandboxMetadata{Name: "web-0", Namespace: "prod"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.pull(t, "nginx"); err != nil {
		t.Fatal(err)
	}
	pulls := r.srv.Pulls()
	if len(pulls) != 2 {
		t.Fatalf("%d pulls recorded, want 2", len(pulls))
	}
	p := pulls[0]
	if p.Image != "private.example.com/team/app:v2" || p.Ref != "private.example.com/team/app:v2" ||
		p.Auth == nil || p.Auth.Username != "robot" || p.Auth.Password != "s3cret" || p.Auth.ServerAddress != "private.example.com" ||
		p.PodNamespace != "prod" || p.PodName != "web-0" || p.Err != nil || p.End.Before(p.Start) {
		t.Errorf("first pull recorded as %+v (auth %+v)", p, p.Auth)
	}
	if pulls[1].Auth != nil || pulls[1].Ref != "docker.io/library/nginx:latest" {
		t.Errorf("second pull recorded as %+v, want no auth", pulls[1])
	}
}
