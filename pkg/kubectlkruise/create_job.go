package kubectlkruise

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/kubectl/pkg/cmd/create"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

// newCmdCreateJob is kubectl's `create job` (--image, --from=cronjob/NAME: kubectl's own
// code runs them), which also takes --from=advancedcronjob/NAME (acj/NAME).
func newCmdCreateJob(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	kube := create.NewCreateJobOptions(streams)
	cmd := &cobra.Command{
		Use:                   "job NAME --image=image [--from=cronjob/name|advancedcronjob/name] -- [COMMAND] [args...]",
		DisableFlagsInUseLine: true,
		Short:                 "Create a job with the specified name",
		Long: "Create a job with the specified name: from an image, or as a run of a CronJob or of\n" +
			"an AdvancedCronJob whose template is a jobTemplate. A run of an AdvancedCronJob\n" +
			"carries the template's labels and annotations, cronjob.kubernetes.io/instantiate=manual\n" +
			"and an owner reference to the AdvancedCronJob (not a controller reference, as in\n" +
			"OpenKruise: it does not count against the concurrency policy or history limits).",
		Example: "  # Run the AdvancedCronJob \"nightly\" now\n" +
			"  kubectl kruise create job nightly-manual --from=acj/nightly\n\n" +
			"  # Show the Job it would create\n" +
			"  kubectl kruise create job nightly-manual --from=advancedcronjob/nightly --dry-run=client -o yaml\n\n" +
			"  # kubectl's own: from an image, or from a CronJob\n" +
			"  kubectl kruise create job my-job --image=busybox -- date\n" +
			"  kubectl kruise create job test-job --from=cronjob/a-cronjob",
		Run: func(cmd *cobra.Command, args []string) {
			if kube.From != "" && kube.Image == "" {
				acj, gvk, err := resolveFrom(f, kube.From)
				cmdutil.CheckErr(err)
				if gvk.GroupKind() == advancedCronJobKind {
					o := &createRunOptions{PrintFlags: kube.PrintFlags, FieldManager: kube.FieldManager, IOStreams: streams}
					cmdutil.CheckErr(o.runFromAdvancedCronJob(cmd.Context(), f, cmd, args, acj, "Job"))
					return
				}
			}
			cmdutil.CheckErr(kube.Complete(f, cmd, args))
			cmdutil.CheckErr(kube.Validate())
			cmdutil.CheckErr(kube.Run())
		},
	}
	kube.PrintFlags.AddFlags(cmd)
	cmdutil.AddApplyAnnotationFlags(cmd)
	cmdutil.AddValidateFlags(cmd)
	cmdutil.AddDryRunFlag(cmd)
	cmd.Flags().StringVar(&kube.Image, "image", kube.Image, "Image name to run.")
	cmd.Flags().StringVar(&kube.From, "from", kube.From, "The name of the resource to create a Job from (cronjob, advancedcronjob/acj).")
	cmdutil.AddFieldManagerFlagVar(cmd, &kube.FieldManager, "kubectl-create")
	return cmd
}

// runFromAdvancedCronJob creates a run of kind from acj for `create job|broadcastjob
// NAME --from=acj/ACJ`.
func (o *createRunOptions) runFromAdvancedCronJob(ctx context.Context, f cmdutil.Factory, cmd *cobra.Command, args []string, acj *unstructured.Unstructured, kind string) error {
	name, command, err := nameAndCommand(cmd, args)
	if err != nil {
		return err
	}
	if len(command) > 0 {
		return fmt.Errorf("cannot specify --from and command")
	}
	run, err := runFromAdvancedCronJob(acj, kind, name)
	if err != nil {
		return err
	}
	return o.create(ctx, f, cmd, run)
}
