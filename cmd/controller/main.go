// Command kruise-controller reconciles Kruise workloads.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/controllers"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	"github.com/kruise-native/kruise-native/pkg/signals"
	"github.com/kruise-native/kruise-native/pkg/version"
)

func main() {
	ctx := signals.Context()
	os.Exit(cli.Run(newCommand(ctx, controllers.All)))
}

// newCommand is kruise-controller running the given controllers (tests pass their own).
func newCommand(ctx context.Context, constructors []manager.NewFunc) *cobra.Command {
	o := manager.NewOptions()
	logOptions := logs.NewOptions()
	cmd := &cobra.Command{
		Use:   "kruise-controller",
		Short: "Reconcile Kruise workloads (CloneSet, ...) served by kruise-apiserver",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Validate(); err != nil {
				return fmt.Errorf("invalid flags: %w", err)
			}
			if err := logsapi.ValidateAndApply(logOptions, nil); err != nil {
				return err
			}
			ctx := klog.NewContext(cmd.Context(), klog.Background().WithName("kruise-controller"))
			klog.FromContext(ctx).Info("Starting", "version", version.Get())
			return manager.Run(ctx, o, constructors)
		},
	}
	cmd.SetContext(ctx)
	cmd.AddCommand(newInstallHookCommand())
	fs := cmd.Flags()
	o.AddFlags(fs)
	logsapi.AddFlags(logOptions, fs)
	return cmd
}
