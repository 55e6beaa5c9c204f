// Command kruise-apiserver serves apps.kruise.io as an aggregated API server.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apiserver/options"
	"github.com/kruise-native/kruise-native/pkg/version"
)

func main() {
	ctx := genericapiserver.SetupSignalContext()
	os.Exit(cli.Run(newCommand(ctx)))
}

func newCommand(ctx context.Context) *cobra.Command {
	o := options.NewOptions()
	logOptions := logs.NewOptions()
	cmd := &cobra.Command{
		Use:   "kruise-apiserver",
		Short: "Serve the OpenKruise API (apps.kruise.io) as a Kubernetes aggregated API server",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := logsapi.ValidateAndApply(logOptions, nil); err != nil {
				return err
			}
			if err := o.Complete(); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return fmt.Errorf("invalid flags: %w", err)
			}
			ctx := klog.NewContext(cmd.Context(), klog.Background().WithName("kruise-apiserver"))
			klog.FromContext(ctx).Info("Starting", "version", version.Get())
			return o.Run(ctx)
		},
	}
	cmd.SetContext(ctx)
	fs := cmd.Flags()
	o.AddFlags(fs)
	logsapi.AddFlags(logOptions, fs)
	return cmd
}
