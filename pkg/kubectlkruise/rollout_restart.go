package kubectlkruise

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/printers"
	"k8s.io/client-go/dynamic"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/scheme"
)

// restartedAtAnnotation is the template annotation kubectl's restart sets.
const restartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"

// RestartOptions are the flags of `rollout restart`.
type RestartOptions struct {
	selection
	PrintFlags *genericclioptions.PrintFlags
	genericiooptions.IOStreams
	// now is the clock; tests fix it.
	now func() time.Time
}

func newCmdRestart(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := &RestartOptions{
		PrintFlags: genericclioptions.NewPrintFlags("restarted").WithTypeSetter(scheme.Scheme),
		IOStreams:  streams,
		now:        time.Now,
	}
	cmd := &cobra.Command{
		Use:   "restart RESOURCE",
		Short: "Restart a resource",
		Long: "Restart the pods of a workload by setting the template annotation\n" +
			restartedAtAnnotation + ", as kubectl does. Only metadata changes, so with an\n" +
			"in-place update strategy (InPlaceIfPossible, InPlaceOnly) the pods are updated in place.",
		Example: "  kubectl kruise rollout restart cloneset/sample",
		Run: func(cmd *cobra.Command, args []string) {
			dryRun, err := cmdutil.GetDryRunStrategy(cmd)
			cmdutil.CheckErr(err)
			cmdutil.CheckErr(o.Run(cmd.Context(), f, args, dryRun))
		},
	}
	o.selection.addFlags(cmd, "identifying the resource to get from a server.")
	cmdutil.AddDryRunFlag(cmd)
	o.PrintFlags.AddFlags(cmd)
	return cmd
}

// Run restarts every resolved workload.
func (o *RestartOptions) Run(ctx context.Context, f cmdutil.Factory, args []string, dryRun cmdutil.DryRunStrategy) error {
	targets, err := o.resolve(ctx, f, args, "rollout restart")
	if err != nil {
		return err
	}
	dyn, err := f.DynamicClient()
	if err != nil {
		return err
	}
	printer, err := cmdutil.PrintFlagsWithDryRunStrategy(o.PrintFlags, dryRun).ToPrinter()
	if err != nil {
		return err
	}
	for _, t := range targets {
		if err := restart(ctx, dyn, t, o.now(), dryRun, printer, o.Out); err != nil {
			return err
		}
	}
	return nil
}

// restart stamps the template with the restart time; the controller sees a new
// revision and rolls it out like any other.
func restart(ctx context.Context, dyn dynamic.Interface, t *target, now time.Time, dryRun cmdutil.DryRunStrategy, printer printers.ResourcePrinter, out io.Writer) error {
	path := []string{"spec", "template", "metadata", "annotations", restartedAtAnnotation}
	stamp := now.Format(time.RFC3339)
	if dryRun == cmdutil.DryRunClient {
		// Show the object as the patch would leave it.
		obj := t.Object.DeepCopy()
		if err := unstructured.SetNestedField(obj.Object, stamp, path...); err != nil {
			return fmt.Errorf("%s: %w", t.ref(), err)
		}
		return printer.PrintObj(obj, out)
	}
	patch := nestedPatch(path, stamp)
	obj, err := mergePatch(ctx, dyn, t, patch, dryRun == cmdutil.DryRunServer)
	if err != nil {
		return err
	}
	return printer.PrintObj(obj, out)
}
