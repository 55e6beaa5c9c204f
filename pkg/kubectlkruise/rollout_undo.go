package kubectlkruise

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/printers"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/scheme"
)

// UndoOptions are the flags of `rollout undo`.
type UndoOptions struct {
	selection
	ToRevision int64
	PrintFlags *genericclioptions.PrintFlags
	genericiooptions.IOStreams
}

func newCmdUndo(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := &UndoOptions{
		PrintFlags: genericclioptions.NewPrintFlags("rolled back").WithTypeSetter(scheme.Scheme),
		IOStreams:  streams,
	}
	cmd := &cobra.Command{
		Use:   "undo (TYPE NAME | TYPE/NAME) [flags]",
		Short: "Undo a previous rollout",
		Long: "Roll back to a previous revision through the workload's rollback subresource: the\n" +
			"server restores the revision's pod template, so pods follow it back (in place where\n" +
			"the update strategy allows). Only the server picks the revision: --dry-run=client\n" +
			"asks it for a dry run too, which writes nothing.",
		Example: "  kubectl kruise rollout undo cloneset/sample\n  kubectl kruise rollout undo cloneset/sample --to-revision=1 --dry-run=server",
		Run: func(cmd *cobra.Command, args []string) {
			dryRun, err := cmdutil.GetDryRunStrategy(cmd)
			cmdutil.CheckErr(err)
			cmdutil.CheckErr(o.Run(cmd.Context(), f, args, dryRun))
		},
	}
	o.selection.addFlags(cmd, "identifying the resource to get from a server.")
	cmd.Flags().Int64Var(&o.ToRevision, "to-revision", 0, "The revision to rollback to. Default to 0 (last revision).")
	cmdutil.AddDryRunFlag(cmd)
	o.PrintFlags.AddFlags(cmd)
	return cmd
}

// Run rolls back every resolved workload.
func (o *UndoOptions) Run(ctx context.Context, f cmdutil.Factory, args []string, dryRun cmdutil.DryRunStrategy) error {
	if o.ToRevision < 0 {
		return fmt.Errorf("revision must be a positive integer: %v", o.ToRevision)
	}
	targets, err := o.resolve(ctx, f, args, "rollout undo")
	if err != nil {
		return err
	}
	clients, err := clientsFrom(f)
	if err != nil {
		return err
	}
	printer, err := cmdutil.PrintFlagsWithDryRunStrategy(o.PrintFlags, dryRun).ToPrinter()
	if err != nil {
		return err
	}
	for _, t := range targets {
		if err := undo(ctx, clients, t, o.ToRevision, dryRun, printer, o.Out); err != nil {
			return err
		}
	}
	return nil
}

// undo asks the server to roll back, really or as a dry run. Only the server picks the
// revision and restores its template, so a client dry run is a server dry run too: it
// writes nothing and shows what the server would restore.
func undo(ctx context.Context, c *Clients, t *target, toRevision int64, dryRun cmdutil.DryRunStrategy, printer printers.ResourcePrinter, out io.Writer) error {
	opts := metav1.CreateOptions{}
	if dryRun != cmdutil.DryRunNone {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	obj, err := postRollback(ctx, c, t, toRevision, opts)
	if err != nil {
		return err
	}
	return printer.PrintObj(obj, out)
}
