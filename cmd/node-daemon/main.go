// Command kruise-node-daemon runs on every node: it pulls the images of the node's
// NodeImage and recreates containers for the node's ContainerRecreateRequests, through
// the container runtime's CRI socket.
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

	"github.com/kruise-native/kruise-native/pkg/nodedaemon/daemon"
	"github.com/kruise-native/kruise-native/pkg/signals"
	"github.com/kruise-native/kruise-native/pkg/version"
)

func main() {
	ctx := signals.Context()
	os.Exit(cli.Run(newCommand(ctx)))
}

func newCommand(ctx context.Context) *cobra.Command {
	o := daemon.NewOptions()
	runtime := daemon.NewRuntimeOptions()
	logOptions := logs.NewOptions()
	cmd := &cobra.Command{
		Use:   "kruise-node-daemon",
		Short: "Pull images and recreate containers on this node for Kruise (NodeImage, ContainerRecreateRequest)",
		Long: "kruise-node-daemon acts for one node, named by the environment variable " + daemon.NodeNameEnv +
			": it pulls the images its NodeImage lists and recreates the containers its node's ContainerRecreateRequests name, " +
			"through the CRI socket of the container runtime.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := logsapi.ValidateAndApply(logOptions, nil); err != nil {
				return err
			}
			o.NodeName = os.Getenv(daemon.NodeNameEnv)
			if err := errors.Join(o.Validate(), runtime.Validate()); err != nil {
				return fmt.Errorf("invalid configuration: %w", err)
			}
			ctx := klog.NewContext(cmd.Context(), klog.Background().WithName("kruise-node-daemon"))
			klog.FromContext(ctx).Info("Starting", "version", version.Get())
			return daemon.Run(ctx, o, runtime.Endpoint)
		},
	}
	cmd.SetContext(ctx)
	fs := cmd.Flags()
	o.AddFlags(fs)
	runtime.AddFlags(fs)
	logsapi.AddFlags(logOptions, fs)
	return cmd
}
