// Command kruise-node-daemon-dev is kruise-node-daemon for kwok nodes, which have no
// container runtime: the same daemon, acting through an in-memory fake runtime and
// kubelet simulator it serves itself on --fake-runtime-socket. For the local stack
// (hack/local-up.sh) and the integration tests only; it is never deployed, and the
// fake runtime is never linked into kruise-node-daemon.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/internal/devruntime"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/daemon"
	"github.com/kruise-native/kruise-native/pkg/signals"
)

func main() {
	ctx := signals.Context()
	os.Exit(cli.Run(newCommand(ctx)))
}

func newCommand(ctx context.Context) *cobra.Command {
	o := daemon.NewOptions()
	dev := &devruntime.Options{}
	logOptions := logs.NewOptions()
	cmd := &cobra.Command{
		Use:   "kruise-node-daemon-dev",
		Short: "kruise-node-daemon with an in-process fake container runtime, for kwok nodes (development and tests only)",
		Long: "kruise-node-daemon-dev acts for one kwok node, named by the environment variable " + daemon.NodeNameEnv +
			", as kruise-node-daemon does, through a fake container runtime and kubelet simulator it serves on --fake-runtime-socket.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := logsapi.ValidateAndApply(logOptions, nil); err != nil {
				return err
			}
			o.NodeName = os.Getenv(daemon.NodeNameEnv)
			if err := errors.Join(o.Validate(), dev.Validate()); err != nil {
				return fmt.Errorf("invalid configuration: %w", err)
			}
			ctx := klog.NewContext(cmd.Context(), klog.Background().WithName("kruise-node-daemon-dev"))
			return devruntime.RunDaemon(ctx, o, dev)
		},
	}
	cmd.SetContext(ctx)
	fs := cmd.Flags()
	o.AddFlags(fs)
	dev.AddFlags(fs)
	logsapi.AddFlags(logOptions, fs)
	return cmd
}
