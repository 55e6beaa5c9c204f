package kubectlkruise

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/printers"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/scheme"
)

var cloneSets = schema.GroupResource{Group: Group, Resource: "clonesets"}

// ScaleDownOptions are the flags of `scaledown`.
type ScaleDownOptions struct {
	selection
	Pods       []string
	PrintFlags *genericclioptions.PrintFlags
	genericiooptions.IOStreams
}

// NewCmdScaleDown is `kubectl kruise scaledown cloneset/NAME --pods=a,b`.
func NewCmdScaleDown(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := &ScaleDownOptions{
		PrintFlags: genericclioptions.NewPrintFlags("scaled down").WithTypeSetter(scheme.Scheme),
		IOStreams:  streams,
	}
	cmd := &cobra.Command{
		Use:   "scaledown cloneset/NAME --pods=POD[,POD...]",
		Short: "Delete chosen pods of a CloneSet and lower its replicas",
		Long: "Scale a CloneSet down by deleting exactly the named pods: they are added to\n" +
			"spec.scaleStrategy.podsToDelete and spec.replicas is lowered by their number, in one\n" +
			"write. Every pod must belong to the CloneSet (kruise-apiserver checks), or nothing\n" +
			"is written. --dry-run=client asks the server too (as a dry run): only it judges the pods.",
		Example: "  kubectl kruise scaledown cloneset/sample --pods=sample-abcde,sample-fghij",
		Run: func(cmd *cobra.Command, args []string) {
			dryRun, err := cmdutil.GetDryRunStrategy(cmd)
			cmdutil.CheckErr(err)
			cmdutil.CheckErr(o.Run(cmd.Context(), f, args, dryRun))
		},
	}
	o.selection.addFlags(cmd, "identifying the CloneSet.")
	cmd.Flags().StringSliceVar(&o.Pods, "pods", nil, "Names of the pods to delete, comma separated.")
	cmdutil.AddDryRunFlag(cmd)
	o.PrintFlags.AddFlags(cmd)
	return cmd
}

// Run scales down the one resolved CloneSet.
func (o *ScaleDownOptions) Run(ctx context.Context, f cmdutil.Factory, args []string, dryRun cmdutil.DryRunStrategy) error {
	if len(o.Pods) == 0 {
		return fmt.Errorf("--pods is required: the names of the pods to delete")
	}
	targets, err := o.resolve(ctx, f, args, "scaledown")
	if err != nil {
		return err
	}
	if len(targets) != 1 {
		return fmt.Errorf("scaledown acts on one CloneSet at a time - %d resources were found", len(targets))
	}
	clients, err := clientsFrom(f)
	if err != nil {
		return err
	}
	printer, err := cmdutil.PrintFlagsWithDryRunStrategy(o.PrintFlags, dryRun).ToPrinter()
	if err != nil {
		return err
	}
	return scaleDown(ctx, clients, targets[0], o.Pods, dryRun, printer, o.Out)
}

// scaleDown lists the pods in podsToDelete and lowers replicas by their number, in one
// merge patch guarded by the resourceVersion read (a concurrent change is a conflict,
// not a lost update). Whether each pod is the CloneSet's is the server's rule
// (admission plugin KruiseCloneSetPodsToDelete): a name of no pod, or of another's,
// fails the patch with the field at fault, and nothing is written.
func scaleDown(ctx context.Context, c *Clients, t *target, pods []string, dryRun cmdutil.DryRunStrategy, printer printers.ResourcePrinter, out io.Writer) error {
	if t.GVR.GroupResource() != cloneSets {
		return fmt.Errorf("scaledown is not supported for %q: only %s", t.GVR.GroupResource().String(), cloneSets.String())
	}
	existing, _, err := unstructured.NestedStringSlice(t.Object.Object, "spec", "scaleStrategy", "podsToDelete")
	if err != nil {
		return fmt.Errorf("%s: spec.scaleStrategy.podsToDelete: %w", t.ref(), err)
	}
	listed := map[string]bool{}
	for _, p := range existing {
		listed[p] = true
	}
	var added []string
	for _, p := range pods {
		// A pod already listed was counted when it was listed; never twice.
		if !listed[p] {
			listed[p] = true
			added = append(added, p)
		}
	}
	replicas, found, err := unstructured.NestedInt64(t.Object.Object, "spec", "replicas")
	if err != nil {
		return fmt.Errorf("%s: spec.replicas: %w", t.ref(), err)
	}
	if !found {
		replicas = 1
	}
	if int64(len(added)) > replicas {
		return fmt.Errorf("%s has %d replicas: cannot delete %d pods", t.ref(), replicas, len(added))
	}
	toDelete := append(append([]interface{}{}, stringsToInterfaces(existing)...), stringsToInterfaces(added)...)
	patch := map[string]interface{}{
		"metadata": map[string]interface{}{"resourceVersion": t.Object.GetResourceVersion()},
		"spec": map[string]interface{}{
			"replicas":      replicas - int64(len(added)),
			"scaleStrategy": map[string]interface{}{"podsToDelete": toDelete},
		},
	}
	// The pods are the server's to judge, so a client dry run is a server dry run too
	// (as rollout undo's): it writes nothing and shows what the server would admit.
	obj, err := mergePatch(ctx, c.Dynamic, t, patch, dryRun != cmdutil.DryRunNone)
	if err != nil {
		return err
	}
	return printer.PrintObj(obj, out)
}

func stringsToInterfaces(in []string) []interface{} {
	out := make([]interface{}, len(in))
	for i, s := range in {
		out[i] = s
	}
	return out
}
