package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
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

// A feature gate of a behaviour kruise-native does not have, turned on, or one it
// cannot turn off, turned off, stops kruise-controller at start with the gate's name
// and why, before any controller is built (pkg/features has the table test of every
// gate; the gates it honours pass the same check: TestAcceptsTheGatesItHonours).
func TestRefusesAGateItCannotHonour(t *testing.T) {
	for _, tt := range []struct {
		gates   string
		refused string
	}{
		{gates: "CloneSetShortHash=true", refused: "CloneSetShortHash=true is not supported"},
		{gates: "PodWebhook=false", refused: "PodWebhook=false is not supported"},
	} {
		t.Run(tt.gates, func(t *testing.T) {
			built := false
			stop := func(context.Context, *manager.ControllerContext) (manager.Controller, error) {
				built = true
				return nil, errors.New("stop here")
			}
			cmd := newCommand(t.Context(), []manager.NewFunc{stop})
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			cmd.SetArgs([]string{"--kubeconfig=" + unreachableKubeconfig(t), "--leader-elect=false",
				"--bind-address=127.0.0.1:0", "--feature-gates=" + tt.gates})
			err := cmd.Execute()
			if built || err == nil || !strings.Contains(err.Error(), tt.refused) {
				t.Fatalf("got %v (controllers built: %v), want a refusal saying %q", err, built, tt.refused)
			}
		})
	}
}

func unreachableKubeconfig(t *testing.T) string {
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
	return kubeconfig
}

func TestAcceptsTheGatesItHonours(t *testing.T) {
	o := manager.NewOptions()
	fs := pflag.NewFlagSet("kruise-controller", pflag.ContinueOnError)
	o.AddFlags(fs)
	if err := fs.Parse([]string{"--feature-gates=KruisePodReadinessGate=false,ImagePullJobGate=false," +
		"ResourceDistributionGate=false,PodUnavailableBudgetUpdateGate=false,CloneSetShortHash=false"}); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Fatalf("refused: %v", err)
	}
}
