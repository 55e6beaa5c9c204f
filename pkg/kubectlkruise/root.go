package kubectlkruise

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/kubectl/pkg/cmd/completion"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

// NewCommand is `kubectl kruise` with kubectl's global flags (--namespace, --context,
// --kubeconfig, ...) from cli-runtime's ConfigFlags.
func NewCommand(streams genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kubectl-kruise",
		Short: "kubectl commands for Kruise workloads",
		Long: "kubectl kruise: rollout, set, describe, scaledown and migrate for CloneSet,\n" +
			"Advanced StatefulSet and Advanced DaemonSet, served by Kruise Native; and, as\n" +
			"OpenKruise's plugin has them, create job|broadcastjob --from=acj/NAME, create crr,\n" +
			"get all, exec -S and expose.",
		Annotations: map[string]string{
			// Shown as "kubectl kruise" in usage when run as a kubectl plugin.
			cobra.CommandDisplayNameAnnotation: "kubectl kruise",
		},
		SilenceUsage: true,
		Run:          cmdutil.DefaultSubCommandRun(streams.ErrOut),
	}
	flags := genericclioptions.NewConfigFlags(true).WithDeprecatedPasswordFlag().WithDiscoveryBurst(300).WithDiscoveryQPS(50.0)
	flags.AddFlags(cmd.PersistentFlags())
	f := cmdutil.NewFactory(cmdutil.NewMatchVersionFlags(flags))
	cmd.AddCommand(
		NewCmdRollout(f, streams),
		NewCmdScaleDown(f, streams),
		NewCmdSet(f, streams),
		NewCmdDescribe(f, streams),
		NewCmdCreate(f, streams),
		NewCmdGet(f, streams),
		NewCmdExec(f, streams),
		NewCmdExpose(f, streams),
		NewCmdMigrate(f, streams),
		NewCmdMigrateFromCRDs(f, streams),
		NewCmdVersion(f, streams),
		completion.NewCmdCompletion(streams.Out, ""),
	)
	return cmd
}

// NewCmdRollout groups the rollout subcommands, as `kubectl rollout` does.
func NewCmdRollout(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rollout SUBCOMMAND",
		Short: "Manage the rollout of a resource",
		Long: "Manage the rollout of CloneSets (clone), Advanced StatefulSets (asts) and\n" +
			"Advanced DaemonSets (daemon, ads).",
		Run: cmdutil.DefaultSubCommandRun(streams.ErrOut),
	}
	cmd.AddCommand(
		newCmdStatus(f, streams),
		newCmdHistory(f, streams),
		newCmdUndo(f, streams),
		newCmdPause(f, streams, true),
		newCmdPause(f, streams, false),
		newCmdRestart(f, streams),
	)
	return cmd
}
