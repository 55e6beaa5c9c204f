package devruntime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/klog/v2/ktesting"

	"github.com/kruise-native/kruise-native/pkg/nodedaemon/daemon"
)

func TestValidate(t *testing.T) {
	if err := (&Options{}).Validate(); err == nil || !strings.Contains(err.Error(), "--fake-runtime-socket") {
		t.Errorf("no socket: %v, want an error naming --fake-runtime-socket", err)
	}
	if err := (&Options{Socket: "/tmp/x.sock"}).Validate(); err != nil {
		t.Errorf("a socket: %v", err)
	}
}

// A fake runtime that cannot be served is an error before the daemon starts.
func TestRunDaemonReturnsWhenTheRuntimeCannotServe(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`), 0o600); err != nil {
		t.Fatal(err)
	}
	notADir := filepath.Join(dir, "file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	o := daemon.NewOptions()
	o.NodeName, o.Kubeconfig = "kwok-node-0", kubeconfig
	err := RunDaemon(ctx, o, &Options{Socket: filepath.Join(notADir, "cri.sock")})
	if err == nil || !strings.Contains(err.Error(), "fake runtime") {
		t.Fatalf("RunDaemon: %v, want a fake runtime error", err)
	}
}
