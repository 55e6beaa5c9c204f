package imagepuller_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	grpcstatus "google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2/ktesting"

	"github.com/kruise-native/kruise-native/internal/fakecri"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

// waitTimeout bounds every poll: generous, since the machine is shared, and
// only reached when a test fails.
const waitTimeout = 20 * time.Second

// startRuntime serves a fake CRI runtime on a unix socket and returns it with
// a real gRPC ImageService client connected to it.
func startRuntime(t *testing.T) (*fakecri.Server, runtimeapi.ImageServiceClient) {
	t.Helper()
	// Unix socket paths are limited to ~107 bytes; t.TempDir() can be longer.
	dir, err := os.MkdirTemp("", "imagepuller")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	srv := fakecri.NewServer()
	if err := srv.Start(filepath.Join(dir, "cri.sock")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(srv.Endpoint(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return srv, runtimeapi.NewImageServiceClient(conn)
}

// changes records onChange calls. Its callback reads the Manager's status,
// which would deadlock if the Manager called it under its lock.
type changes struct {
	mu     sync.Mutex
	m      *imagepuller.Manager
	counts map[string]int
}

func (c *changes) onChange(key string) {
	c.mu.Lock()
	m := c.m
	c.counts[key]++
	c.mu.Unlock()
	if m != nil {
		m.Status(key)
	}
}

func (c *changes) count(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[key]
}

// newManager returns a Manager on client with fast backoff unless opts say
// otherwise, stopped at the end of the test.
func newManager(t *testing.T, client runtimeapi.ImageServiceClient, opts imagepuller.Options) (*imagepuller.Manager, *changes) {
	t.Helper()
	if opts.Backoff == (imagepuller.Backoff{}) {
		opts.Backoff = imagepuller.Backoff{Initial: time.Millisecond, Max: 5 * time.Millisecond}
	}
	_, ctx := ktesting.NewTestContext(t)
	c := &changes{counts: map[string]int{}}
	m, err := imagepuller.NewManager(ctx, client, opts, c.onChange)
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.m = m
	c.mu.Unlock()
	t.Cleanup(m.Stop)
	return m, c
}

// waitStatus polls key's status until cond holds.
func waitStatus(t *testing.T, m *imagepuller.Manager, key string, what string, cond func(imagepuller.Status) bool) imagepuller.Status {
	t.Helper()
	var last imagepuller.Status
	var found bool
	ok := poll(func() bool {
		last, found = m.Status(key)
		return found && cond(last)
	})
	if !ok {
		t.Fatalf("%s: status of %q never became %s; last (found=%v): %+v", t.Name(), key, what, found, last)
	}
	return last
}

func waitFinished(t *testing.T, m *imagepuller.Manager, key string) imagepuller.Status {
	t.Helper()
	return waitStatus(t, m, key, "finished", imagepuller.Status.Finished)
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !poll(cond) {
		t.Fatalf("timed out waiting for %s", what)
	}
}

func poll(cond func() bool) bool {
	deadline := time.Now().Add(waitTimeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// runningPulls counts the PullImage calls the runtime is serving now.
func runningPulls(srv *fakecri.Server) int {
	n := 0
	for _, p := range srv.Pulls() {
		if p.End.IsZero() {
			n++
		}
	}
	return n
}

// status is the gRPC code of err (OK for nil).
func status(err error) codes.Code { return grpcstatus.Code(err) }
