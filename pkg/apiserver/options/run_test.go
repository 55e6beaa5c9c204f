package options

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// listen holds a loopback port until the test ends, as a previous kruise-apiserver still
// shutting down would.
func listen(t *testing.T) (net.Listener, int) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l, l.Addr().(*net.TCPAddr).Port
}

func freePort(t *testing.T) int {
	l, p := listen(t)
	_ = l.Close()
	return p
}

// lockDatabase takes etcd's lock on the member's database in dataDir (bbolt flocks
// member/snap/db), as another kruise-apiserver running on the same data dir holds it.
func lockDatabase(t *testing.T, dataDir string) {
	t.Helper()
	dir := filepath.Join(dataDir, "member", "snap")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "db"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
}

// When the embedded etcd cannot start, Run returns its cause promptly, so the process
// exits non-zero and its supervisor restarts it; it used to wait for ever on the stop of
// a member that never started.
func TestRunFailsPromptlyWhenEmbeddedEtcdCannotStart(t *testing.T) {
	for _, tc := range []struct {
		name string
		// hold makes the start fail and returns what the error must name.
		hold func(t *testing.T, dataDir string, client, peer *int) string
	}{
		{name: "peer port held", hold: func(t *testing.T, _ string, _, peer *int) string {
			_, *peer = listen(t)
			return "127.0.0.1:" + strconv.Itoa(*peer)
		}},
		{name: "client port held", hold: func(t *testing.T, _ string, client, _ *int) string {
			_, *client = listen(t)
			return "127.0.0.1:" + strconv.Itoa(*client)
		}},
		{name: "data dir locked", hold: func(t *testing.T, dataDir string, _, _ *int) string {
			lockDatabase(t, dataDir)
			return "in use by another process"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dataDir := t.TempDir()
			client, peer := freePort(t), freePort(t)
			want := tc.hold(t, dataDir, &client, &peer)
			o := completed(t, "--embedded-etcd-data-dir="+dataDir,
				"--embedded-etcd-client-port="+strconv.Itoa(client),
				"--embedded-etcd-peer-port="+strconv.Itoa(peer),
				"--embedded-etcd-unsafe-no-fsync")
			if err := o.Validate(); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- o.Run(ctx) }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("Run() = %v, want an error naming %q", err, want)
				}
				t.Logf("Run() = %v", err)
			case <-time.After(30 * time.Second):
				t.Fatal("Run() still running 30s after the embedded etcd could not start")
			}
		})
	}
}
