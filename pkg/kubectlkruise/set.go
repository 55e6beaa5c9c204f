package kubectlkruise

import (
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/kubectl/pkg/cmd/set"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

// NewCmdSet is `kubectl kruise set`: kubectl's own set subcommands (same syntax, flags,
// output and errors), able to edit Kruise workloads because the plugin registers their
// types in kubectl's scheme and their pod templates in kubectl's polymorphic helper.
// `set selector` is kubectl's too: like kubectl it sets Service selectors only, since a
// workload's selector is immutable (the server would refuse it).
func NewCmdSet(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	installPolymorphicHelpers()
	cmd := &cobra.Command{
		Use:   "set SUBCOMMAND",
		Short: "Set specific features on objects",
		Long: "Configure application resources: the pod template of CloneSets, Advanced\n" +
			"StatefulSets, Advanced DaemonSets, BroadcastJobs, AdvancedCronJobs and the built-in\n" +
			"workloads.",
		Run: cmdutil.DefaultSubCommandRun(streams.ErrOut),
	}
	for _, sub := range []*cobra.Command{
		set.NewCmdImage(f, streams),
		set.NewCmdEnv(f, streams),
		set.NewCmdResources(f, streams),
		set.NewCmdServiceAccount(f, streams),
		set.NewCmdSelector(f, streams),
		set.NewCmdSubject(f, streams),
	} {
		if ex, ok := setExamples[sub.Name()]; ok {
			sub.Example = ex + "\n\n" + strings.ReplaceAll(sub.Example, "kubectl set ", "kubectl kruise set ")
		}
		cmd.AddCommand(sub)
	}
	return cmd
}

// setExamples put the Kruise kinds first in each subcommand's help; kubectl's own
// examples follow, as they work unchanged on the built-in kinds.
var setExamples = map[string]string{
	"image": "  # Set the image of the container \"main\" of a CloneSet (updated in place where the strategy allows)\n" +
		"  kubectl kruise set image cloneset/sample main=nginx:1.26\n\n" +
		"  # Every container of an Advanced StatefulSet, printing the result of a server dry run\n" +
		"  kubectl kruise set image statefulsets.apps.kruise.io/web '*=nginx:1.26' --dry-run=server -o yaml",
	"env": "  # Add a variable to the containers of an Advanced DaemonSet\n" +
		"  kubectl kruise set env daemonsets.apps.kruise.io/agent LOG_LEVEL=debug",
	"resources": "  # Limit the container \"main\" of every CloneSet labelled app=web\n" +
		"  kubectl kruise set resources clonesets -l app=web -c main --limits=cpu=200m,memory=256Mi",
	"serviceaccount": "  # Run the pods of a CloneSet as another service account\n" +
		"  kubectl kruise set serviceaccount cloneset/sample builder",
}
