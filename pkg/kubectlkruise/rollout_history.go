package kubectlkruise

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/printers"
	"k8s.io/client-go/kubernetes"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/describe"
	"k8s.io/kubectl/pkg/scheme"

	"github.com/kruise-native/kruise-native/pkg/revisiondata"
)

// changeCauseAnnotation is where kubectl records the command that made a revision.
const changeCauseAnnotation = "kubernetes.io/change-cause"

// HistoryOptions are the flags of `rollout history`.
type HistoryOptions struct {
	selection
	Revision   int64
	PrintFlags *genericclioptions.PrintFlags
	genericiooptions.IOStreams
}

func newCmdHistory(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := &HistoryOptions{
		PrintFlags: genericclioptions.NewPrintFlags("").WithTypeSetter(scheme.Scheme),
		IOStreams:  streams,
	}
	cmd := &cobra.Command{
		Use:     "history (TYPE NAME | TYPE/NAME) [flags]",
		Short:   "View rollout history",
		Long:    "View the revisions of a CloneSet, Advanced StatefulSet or Advanced DaemonSet: its ControllerRevisions.",
		Example: "  kubectl kruise rollout history cloneset/sample\n  kubectl kruise rollout history cloneset/sample --revision=2",
		Run: func(cmd *cobra.Command, args []string) {
			cmdutil.CheckErr(o.Run(cmd.Context(), f, args))
		},
	}
	o.selection.addFlags(cmd, "identifying the resource to get from a server.")
	cmd.Flags().Int64Var(&o.Revision, "revision", 0, "See the details, including podTemplate of the revision specified")
	o.PrintFlags.AddFlags(cmd)
	return cmd
}

// Run prints the history of every resolved workload.
func (o *HistoryOptions) Run(ctx context.Context, f cmdutil.Factory, args []string) error {
	if o.Revision < 0 {
		return fmt.Errorf("revision must be a positive integer: %v", o.Revision)
	}
	targets, err := o.resolve(ctx, f, args, "rollout history")
	if err != nil {
		return err
	}
	kube, err := f.KubernetesClientSet()
	if err != nil {
		return fmt.Errorf("kubernetes client: %w", err)
	}
	var printer printers.ResourcePrinter
	if o.PrintFlags.OutputFlagSpecified() {
		if printer, err = o.PrintFlags.ToPrinter(); err != nil {
			return err
		}
	}
	for _, t := range targets {
		if err := history(ctx, kube, t, o.Revision, printer, o.Out); err != nil {
			return err
		}
	}
	return nil
}

// history prints the revision table, or with revision > 0 that revision's pod template.
// A printer (from -o) prints the ControllerRevision objects instead.
func history(ctx context.Context, kube kubernetes.Interface, t *target, revision int64, printer printers.ResourcePrinter, out io.Writer) error {
	revs, err := ownedRevisions(ctx, kube, t)
	if err != nil {
		return err
	}
	if revision > 0 {
		rev, err := findRevision(revs, revision, t)
		if err != nil {
			return err
		}
		if printer != nil {
			return printer.PrintObj(rev, out)
		}
		tmpl, err := revisiondata.Decode(rev)
		if err != nil {
			return err
		}
		// DescribePodTemplate writes its own "Pod Template:" header, as in kubectl's
		// rollout history.
		var buf bytes.Buffer
		describe.DescribePodTemplate(tmpl, describe.NewPrefixWriter(&buf))
		_, err = fmt.Fprintf(out, "%s with revision #%d\n%s", t.ref(), revision, buf.String())
		return err
	}
	if printer != nil {
		for i := range revs {
			if err := printer.PrintObj(&revs[i], out); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := fmt.Fprintf(out, "%s\n", t.ref()); err != nil {
		return err
	}
	w := tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)
	fmt.Fprintf(w, "REVISION\tCHANGE-CAUSE\n")
	for _, rev := range revs {
		cause := rev.Annotations[changeCauseAnnotation]
		if cause == "" {
			cause = "<none>"
		}
		fmt.Fprintf(w, "%d\t%s\n", rev.Revision, cause)
	}
	fmt.Fprintln(w)
	return w.Flush()
}

// findRevision picks a revision by number, or explains which exist.
func findRevision(revs []appsv1.ControllerRevision, revision int64, t *target) (*appsv1.ControllerRevision, error) {
	numbers := make([]string, 0, len(revs))
	for i := range revs {
		if revs[i].Revision == revision {
			return &revs[i], nil
		}
		numbers = append(numbers, fmt.Sprint(revs[i].Revision))
	}
	available := strings.Join(numbers, ", ")
	if available == "" {
		available = "none"
	}
	return nil, fmt.Errorf("unable to find the specified revision %d of %s; available revisions: %s", revision, t.ref(), available)
}
