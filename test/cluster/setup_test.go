package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// optInEnv must be "1": the suite runs a node as root and changes the host while it runs.
const optInEnv = "KRUISE_TEST_CLUSTER"

// upCluster brings the node up for t, with `make images`'s images imported, and tears it
// down (restoring the host) when t ends; it returns the images' tag. It skips, saying
// why, unless asked for and possible here.
func upCluster(t *testing.T) (*harness.Cluster, string) {
	t.Helper()
	if os.Getenv(optInEnv) != "1" {
		t.Skipf("opt-in test: run `make test-cluster` (or set %s=1 as root)", optInEnv)
	}
	root, err := harness.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	version, images, err := harness.BuiltImages(root)
	if err != nil {
		t.Fatalf("%v (make test-cluster does)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c, err := harness.Up(ctx, harness.Options{Root: root, Version: version, Images: images, Logf: t.Logf})
	var skip *harness.SkipError
	if errors.As(err, &skip) {
		t.Skip(skip.Reason)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if err := c.Down(ctx); err != nil {
			t.Errorf("teardown: %v", err)
		}
	})
	// go test -timeout panics without running cleanups: tear down before it does.
	if deadline, ok := t.Deadline(); ok {
		watchdog := time.AfterFunc(time.Until(deadline)-3*time.Minute, func() {
			fmt.Fprintln(os.Stderr, "test/cluster: go test -timeout is 3 minutes away; tearing the cluster down")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := c.Down(ctx); err != nil {
				fmt.Fprintln(os.Stderr, "teardown:", err)
			}
			os.Exit(1)
		})
		t.Cleanup(func() { watchdog.Stop() })
	}
	return c, version
}
