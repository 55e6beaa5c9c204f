package kubectlkruise

import (
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/scheme"
)

// CreateBroadcastJobOptions are the flags of `create broadcastjob`.
type CreateBroadcastJobOptions struct {
	createRunOptions
	Image string
	From  string
}

func newCmdCreateBroadcastJob(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := &CreateBroadcastJobOptions{createRunOptions: createRunOptions{
		PrintFlags: genericclioptions.NewPrintFlags("created").WithTypeSetter(scheme.Scheme),
		IOStreams:  streams,
	}}
	cmd := &cobra.Command{
		Use:                   "broadcastjob NAME --image=image [--from=advancedcronjob/name] -- [COMMAND] [args...]",
		DisableFlagsInUseLine: true,
		Aliases:               []string{"bcj"},
		Short:                 "Create a BroadcastJob with the specified name",
		Long: "Create a BroadcastJob with the specified name: from an image (one pod on every\n" +
			"node), or as a run of an AdvancedCronJob whose template is a broadcastJobTemplate,\n" +
			"labelled and owned as `create job --from=acj/NAME` does.",
		Example: "  # Run the AdvancedCronJob \"clean-nodes\" now\n" +
			"  kubectl kruise create broadcastjob clean-now --from=acj/clean-nodes\n\n" +
			"  # Run date once on every node\n" +
			"  kubectl kruise create broadcastjob my-bcj --image=busybox -- date",
		Run: func(cmd *cobra.Command, args []string) {
			cmdutil.CheckErr(o.Run(cmd, f, args))
		},
	}
	o.PrintFlags.AddFlags(cmd)
	cmdutil.AddApplyAnnotationFlags(cmd)
	cmdutil.AddValidateFlags(cmd)
	cmdutil.AddDryRunFlag(cmd)
	cmd.Flags().StringVar(&o.Image, "image", o.Image, "Image name to run.")
	cmd.Flags().StringVar(&o.From, "from", o.From, "The AdvancedCronJob to create a BroadcastJob from (advancedcronjob/NAME or acj/NAME).")
	cmdutil.AddFieldManagerFlagVar(cmd, &o.FieldManager, "kubectl-create")
	return cmd
}

// Run creates the BroadcastJob.
func (o *CreateBroadcastJobOptions) Run(cmd *cobra.Command, f cmdutil.Factory, args []string) error {
	if (o.Image == "") == (o.From == "") {
		return fmt.Errorf("either --image or --from must be specified")
	}
	if o.From != "" {
		acj, gvk, err := resolveFrom(f, o.From)
		if err != nil {
			return err
		}
		if gvk.GroupKind() != advancedCronJobKind {
			return fmt.Errorf("--from must be an AdvancedCronJob, %s is a %s", o.From, gvk.Kind)
		}
		return o.runFromAdvancedCronJob(cmd.Context(), f, cmd, args, acj, "BroadcastJob")
	}
	name, command, err := nameAndCommand(cmd, args)
	if err != nil {
		return err
	}
	ns, _, err := f.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return err
	}
	return o.create(cmd.Context(), f, cmd, broadcastJobFromImage(ns, name, o.Image, command))
}

// broadcastJobFromImage is a BroadcastJob running one container of image (with
// command, if any) once on every node, as upstream's `create broadcastjob --image`.
func broadcastJobFromImage(namespace, name, image string, command []string) *unstructured.Unstructured {
	container := map[string]interface{}{"name": name, "image": image}
	if len(command) > 0 {
		c := make([]interface{}, len(command))
		for i, s := range command {
			c[i] = s
		}
		container["command"] = c
	}
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": Group + "/v1alpha1",
		"kind":       "BroadcastJob",
		"metadata":   map[string]interface{}{"name": name, "namespace": namespace},
		"spec": map[string]interface{}{"template": map[string]interface{}{"spec": map[string]interface{}{
			"containers":    []interface{}{container},
			"restartPolicy": "Never",
		}}},
	}}
}
