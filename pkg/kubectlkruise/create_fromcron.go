package kubectlkruise

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/scheme"
	"k8s.io/kubectl/pkg/util"
)

// instantiateAnnotation marks a run started by hand rather than by the schedule; kubectl
// sets it on Jobs made from CronJobs and OpenKruise's plugin on runs of AdvancedCronJobs.
const instantiateAnnotation = "cronjob.kubernetes.io/instantiate"

// advancedCronJobKind is the GroupKind `--from` must name for the Kruise path.
var advancedCronJobKind = schema.GroupKind{Group: Group, Kind: "AdvancedCronJob"}

// templateFields is where an AdvancedCronJob keeps the template of each kind of run.
var templateFields = map[string]string{"Job": "jobTemplate", "BroadcastJob": "broadcastJobTemplate"}

// runFromAdvancedCronJob builds the kind ("Job" or "BroadcastJob") named name from the
// AdvancedCronJob's template, as OpenKruise's `kubectl kruise create job|broadcastjob
// --from=acj/NAME` does: the template's labels, its annotations plus
// cronjob.kubernetes.io/instantiate=manual, and an owner reference to the
// AdvancedCronJob so that deleting it deletes the run. The reference is not a
// controller reference, as upstream's is not: the AdvancedCronJob controller counts
// only the runs it controls, so a manual run neither blocks a Forbid schedule nor is
// pruned by the history limits.
func runFromAdvancedCronJob(acj *unstructured.Unstructured, kind, name string) (*unstructured.Unstructured, error) {
	field, ok := templateFields[kind]
	if !ok {
		return nil, fmt.Errorf("cannot create a %s from an AdvancedCronJob", kind)
	}
	tmpl, found, err := unstructured.NestedMap(acj.Object, "spec", "template", field)
	if err != nil {
		return nil, fmt.Errorf("advancedcronjob/%s: spec.template.%s: %w", acj.GetName(), field, err)
	}
	if !found {
		return nil, fmt.Errorf("advancedcronjob/%s has no %s (its runs are %s): use %q", acj.GetName(), field,
			templateKindOf(acj), "kubectl kruise create "+createCommandFor(templateKindOf(acj)))
	}
	run := &unstructured.Unstructured{Object: map[string]interface{}{}}
	if kind == "Job" {
		run.SetAPIVersion("batch/v1")
	} else {
		// The template's spec is in the AdvancedCronJob's version, so the run is too.
		run.SetAPIVersion(acj.GetAPIVersion())
	}
	run.SetKind(kind)
	run.SetName(name)
	run.SetNamespace(acj.GetNamespace())
	labels, _, _ := unstructured.NestedStringMap(tmpl, "metadata", "labels")
	if len(labels) > 0 {
		run.SetLabels(labels)
	}
	annotations := map[string]string{instantiateAnnotation: "manual"}
	tmplAnnotations, _, _ := unstructured.NestedStringMap(tmpl, "metadata", "annotations")
	for k, v := range tmplAnnotations {
		annotations[k] = v
	}
	run.SetAnnotations(annotations)
	run.SetOwnerReferences([]metav1.OwnerReference{{
		// v1alpha1, as the AdvancedCronJob controller and OpenKruise write it.
		APIVersion: Group + "/v1alpha1", Kind: advancedCronJobKind.Kind, Name: acj.GetName(), UID: acj.GetUID(),
	}})
	if spec, ok := tmpl["spec"]; ok {
		run.Object["spec"] = spec
	}
	return run, nil
}

// templateKindOf names the kind of run an AdvancedCronJob's template makes.
func templateKindOf(acj *unstructured.Unstructured) string {
	for _, k := range []struct{ field, kind string }{
		{"jobTemplate", "Job"}, {"broadcastJobTemplate", "BroadcastJob"}, {"imageListPullJobTemplate", "ImageListPullJob"},
	} {
		if _, found, _ := unstructured.NestedFieldNoCopy(acj.Object, "spec", "template", k.field); found {
			return k.kind
		}
	}
	return "none"
}

func createCommandFor(kind string) string {
	switch kind {
	case "Job":
		return "job"
	case "BroadcastJob":
		return "broadcastjob"
	}
	return "-f"
}

// createRunOptions are what creating a run needs besides the object: the common create
// flags (--dry-run, -o, --field-manager, --validate, --save-config).
type createRunOptions struct {
	PrintFlags   *genericclioptions.PrintFlags
	FieldManager string
	genericiooptions.IOStreams
}

// resolveFrom fetches the object --from names (TYPE/NAME) in the command's namespace.
func resolveFrom(f cmdutil.Factory, from string) (*unstructured.Unstructured, schema.GroupVersionKind, error) {
	ns, _, err := f.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return nil, schema.GroupVersionKind{}, fmt.Errorf("namespace: %w", err)
	}
	infos, err := f.NewBuilder().Unstructured().
		NamespaceParam(ns).DefaultNamespace().
		ResourceTypeOrNameArgs(false, from).
		SingleResourceType().Flatten().Latest().
		Do().Infos()
	if err != nil {
		return nil, schema.GroupVersionKind{}, err
	}
	if len(infos) != 1 {
		return nil, schema.GroupVersionKind{}, fmt.Errorf("--from must name one object, %q names %d", from, len(infos))
	}
	u, ok := infos[0].Object.(*unstructured.Unstructured)
	if !ok {
		return nil, schema.GroupVersionKind{}, fmt.Errorf("%s: unexpected object type %T", from, infos[0].Object)
	}
	return u, infos[0].Mapping.GroupVersionKind, nil
}

// create sends obj (or, for a client dry run, only prints it) with the command's
// create flags, and prints the result as kubectl's create commands do.
func (o *createRunOptions) create(ctx context.Context, f cmdutil.Factory, cmd *cobra.Command, obj *unstructured.Unstructured) error {
	dryRun, err := cmdutil.GetDryRunStrategy(cmd)
	if err != nil {
		return err
	}
	validation, err := cmdutil.GetValidationDirective(cmd)
	if err != nil {
		return err
	}
	printer, err := cmdutil.PrintFlagsWithDryRunStrategy(o.PrintFlags, dryRun).ToPrinter()
	if err != nil {
		return err
	}
	if err := util.CreateOrUpdateAnnotation(cmdutil.GetFlagBool(cmd, cmdutil.ApplyAnnotationsFlag), obj, scheme.DefaultJSONEncoder()); err != nil {
		return err
	}
	if dryRun == cmdutil.DryRunClient {
		return printer.PrintObj(obj, o.Out)
	}
	mapper, err := f.ToRESTMapper()
	if err != nil {
		return err
	}
	gvk := obj.GroupVersionKind()
	mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return fmt.Errorf("%s: %w", gvk, err)
	}
	dyn, err := f.DynamicClient()
	if err != nil {
		return err
	}
	opts := metav1.CreateOptions{FieldManager: o.FieldManager, FieldValidation: validation}
	if dryRun == cmdutil.DryRunServer {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	created, err := dyn.Resource(mapping.Resource).Namespace(obj.GetNamespace()).Create(ctx, obj, opts)
	if err != nil {
		return fmt.Errorf("failed to create %s: %w", mapping.Resource.Resource, err)
	}
	return printer.PrintObj(created, o.Out)
}

// nameAndCommand splits `NAME [-- COMMAND...]` as kubectl's create job does.
func nameAndCommand(cmd *cobra.Command, args []string) (string, []string, error) {
	n := cmd.ArgsLenAtDash()
	if n == -1 {
		n = len(args)
	}
	if n != 1 {
		return "", nil, cmdutil.UsageErrorf(cmd, "exactly one NAME is required, got %d", n)
	}
	return args[0], args[1:], nil
}
