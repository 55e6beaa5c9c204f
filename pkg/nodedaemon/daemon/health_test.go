package daemon

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/klog/v2/ktesting"

	"github.com/kruise-native/kruise-native/internal/fakecri"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// /healthz follows the runtime; /readyz also waits for the informers.
func TestHealthFollowsTheRuntime(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	dir, err := os.MkdirTemp("", "health") // short: unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	srv := fakecri.NewServer()
	if err := srv.Start(filepath.Join(dir, "cri.sock")); err != nil {
		t.Fatal(err)
	}
	cri, err := criclient.New(srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	defer cri.Close()
	r := &readiness{}
	hs, addr, err := serveHealth(ctx, "127.0.0.1:0", cri, r)
	if err != nil {
		t.Fatal(err)
	}
	defer hs.Close()
	base := "http://" + addr

	if code, body := get(t, base+"/healthz"); code != http.StatusOK || body != "ok" {
		t.Errorf("/healthz with a runtime: %d %q", code, body)
	}
	if code, _ := get(t, base+"/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz before the informers: %d, want 503", code)
	}
	r.set(func() bool { return true })
	if code, _ := get(t, base+"/readyz"); code != http.StatusOK {
		t.Errorf("/readyz when synced: %d, want 200", code)
	}
	if code, _ := get(t, base+"/metrics"); code != http.StatusOK {
		t.Errorf("/metrics: %d", code)
	}

	srv.Stop()
	if code, body := get(t, base+"/healthz"); code != http.StatusServiceUnavailable {
		t.Errorf("/healthz without a runtime: %d %q, want 503", code, body)
	}
}
