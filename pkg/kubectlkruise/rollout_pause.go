package kubectlkruise

import (
	"context"
	"io"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/printers"
	"k8s.io/client-go/dynamic"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/scheme"
)

// PauseOptions are the flags of `rollout pause` and `rollout resume`.
type PauseOptions struct {
	selection
	// Pause is true for pause, false for resume.
	Pause      bool
	PrintFlags *genericclioptions.PrintFlags
	genericiooptions.IOStreams
}

func newCmdPause(f cmdutil.Factory, streams genericiooptions.IOStreams, pause bool) *cobra.Command {
	o := &PauseOptions{Pause: pause, PrintFlags: genericclioptions.NewPrintFlags("").WithTypeSetter(scheme.Scheme), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "pause RESOURCE",
		Short: "Mark the provided resource as paused",
		Long: "Pause the rollout: the controller stops updating pods to the new revision, and\n" +
			"still creates and deletes pods to keep the desired count. Resume with 'rollout resume'.",
		Example: "  kubectl kruise rollout pause cloneset/sample",
	}
	if !pause {
		cmd.Use, cmd.Short, cmd.Long = "resume RESOURCE", "Resume a paused resource",
			"Resume a paused rollout: the controller goes on updating pods to the new revision."
		cmd.Example = "  kubectl kruise rollout resume cloneset/sample"
	}
	cmd.Run = func(cmd *cobra.Command, args []string) {
		cmdutil.CheckErr(o.Run(cmd.Context(), f, args))
	}
	o.selection.addFlags(cmd, "identifying the resource to get from a server.")
	o.PrintFlags.AddFlags(cmd)
	return cmd
}

// Run pauses or resumes every resolved workload.
func (o *PauseOptions) Run(ctx context.Context, f cmdutil.Factory, args []string) error {
	verb := "rollout resume"
	if o.Pause {
		verb = "rollout pause"
	}
	targets, err := o.resolve(ctx, f, args, verb)
	if err != nil {
		return err
	}
	dyn, err := f.DynamicClient()
	if err != nil {
		return err
	}
	toPrinter := func(operation string) (printers.ResourcePrinter, error) {
		o.PrintFlags.NamePrintFlags.Operation = operation
		return o.PrintFlags.ToPrinter()
	}
	for _, t := range targets {
		if err := setPaused(ctx, dyn, t, o.Pause, toPrinter, o.Out); err != nil {
			return err
		}
	}
	return nil
}

// setPaused writes the kind's paused field unless it already has the wanted value;
// like kubectl, a no-op is reported ("already paused", "not paused"), not an error.
func setPaused(ctx context.Context, dyn dynamic.Interface, t *target, pause bool, toPrinter func(string) (printers.ResourcePrinter, error), out io.Writer) error {
	done, skipped := "paused", "already paused"
	if !pause {
		done, skipped = "resumed", "not paused"
	}
	if t.kind.paused(t.Object) == pause {
		p, err := toPrinter(skipped)
		if err != nil {
			return err
		}
		return p.PrintObj(t.Object, out)
	}
	obj, err := mergePatch(ctx, dyn, t, nestedPatch(pausedPath, pause), false)
	if err != nil {
		return err
	}
	p, err := toPrinter(done)
	if err != nil {
		return err
	}
	return p.PrintObj(obj, out)
}
