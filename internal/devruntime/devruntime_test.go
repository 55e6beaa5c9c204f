package devruntime

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

type imageService interface {
	PullImage(context.Context, *runtimeapi.PullImageRequest) (*runtimeapi.PullImageResponse, error)
}

func pull(ctx context.Context, srv imageService, image string) error {
	_, err := srv.PullImage(ctx, &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: image}})
	return err
}

// The documented registries behave as the package comment says.
func TestPullPatterns(t *testing.T) {
	srv := NewServer()
	ctx := context.Background()

	if err := pull(ctx, srv, "nginx:1.25"); err != nil {
		t.Errorf("an ordinary image: %v", err)
	}
	err := pull(ctx, srv, "fail.invalid/team/app:v1")
	if status.Code(err) != codes.Unknown || !strings.Contains(err.Error(), FailMessage) {
		t.Errorf("fail.invalid: %v", err)
	}
	if err := pull(ctx, srv, "notfound.invalid/app:v1"); status.Code(err) != codes.NotFound {
		t.Errorf("notfound.invalid: %v, want NotFound", err)
	}
	for i := 1; i <= 3; i++ {
		err := pull(ctx, srv, "flaky.invalid/app:v1")
		if (i <= 2) != (err != nil) {
			t.Errorf("flaky.invalid attempt %d: %v", i, err)
		}
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := pull(short, srv, "slow.invalid/app:v1"); err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("slow.invalid within 100ms: %v after %s, want the caller's deadline", err, time.Since(start))
	}
}
