package etcd

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startWithin runs Start in the background and fails the test if it has not returned
// within d: a start that cannot succeed must say so, not wait.
func startWithin(t *testing.T, ctx context.Context, o Options, d time.Duration) (<-chan struct{}, error) {
	t.Helper()
	type result struct {
		stopped <-chan struct{}
		err     error
	}
	done := make(chan result, 1)
	go func() {
		stopped, err := Start(ctx, o)
		done <- result{stopped, err}
	}()
	select {
	case r := <-done:
		return r.stopped, r.err
	case <-time.After(d):
		t.Fatalf("Start still running after %s", d)
		return nil, nil
	}
}

// A data dir whose database another process holds (another kruise-apiserver on it):
// Start fails at once naming it, where etcd would wait for the lock for ever. Once the
// holder lets go the member starts on the same data dir.
func TestStartFailsWhenDataDirLocked(t *testing.T) {
	o := Options{
		DataDir:       filepath.Join(t.TempDir(), "etcd"),
		ClientPort:    freePort(t),
		PeerPort:      freePort(t),
		UnsafeNoFsync: true,
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped, err := startWithin(t, ctx, o, time.Minute)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	cancel()
	<-stopped

	db, err := os.OpenFile(databasePath(o.DataDir), os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("the member's database: %v", err)
	}
	defer db.Close()
	if err := syscall.Flock(int(db.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	_, err = startWithin(t, context.Background(), o, 10*time.Second)
	if err == nil || !strings.Contains(err.Error(), "in use by another process") || !strings.Contains(err.Error(), o.DataDir) {
		t.Fatalf("Start on a locked data dir = %v, want an error naming the data dir in use", err)
	}

	if err := syscall.Flock(int(db.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	stopped, err = startWithin(t, ctx, o, time.Minute)
	if err != nil {
		t.Fatalf("Start once the lock is free: %v", err)
	}
	cancel()
	<-stopped
}

// Ports held (by the previous process, still shutting down): Start fails at once with
// the address in the error.
func TestStartFailsWhenPortHeld(t *testing.T) {
	for _, which := range []string{"client", "peer"} {
		t.Run(which, func(t *testing.T) {
			held := listenOn(t)
			o := Options{DataDir: filepath.Join(t.TempDir(), "etcd"), ClientPort: freePort(t), PeerPort: freePort(t), UnsafeNoFsync: true}
			if which == "client" {
				o.ClientPort = held
			} else {
				o.PeerPort = held
			}
			_, err := startWithin(t, context.Background(), o, 10*time.Second)
			if err == nil || !strings.Contains(err.Error(), "address already in use") {
				t.Fatalf("Start with the %s port held = %v, want address already in use", which, err)
			}
		})
	}
}

// listenOn holds a loopback port until the test ends.
func listenOn(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l.Addr().(*net.TCPAddr).Port
}
