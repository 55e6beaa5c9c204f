package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/component-base/cli"

	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
)

// A controller that cannot start makes kruise-controller exit non-zero (main exits with
// cli.Run's code), before it talks to any API server: the kubeconfig names a port
// nothing listens on.
func TestExitsNonZeroWhenAControllerCannotStart(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`), 0o600); err != nil {
		t.Fatal(err)
	}
	called := false
	failing := func(context.Context, *manager.ControllerContext) (manager.Controller, error) {
		called = true
		return nil, errors.New("cannot start")
	}
	cmd := newCommand(t.Context(), []manager.NewFunc{failing})
	cmd.SetArgs([]string{"--kubeconfig=" + kubeconfig, "--leader-elect=false", "--bind-address=127.0.0.1:0"})
	code := cli.Run(cmd)
	if !called {
		t.Fatalf("exit code %d before the controller was built", code)
	}
	if code == 0 {
		t.Fatal("kruise-controller exited 0 with a controller that cannot start")
	}
}
