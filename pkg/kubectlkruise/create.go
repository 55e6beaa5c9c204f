package kubectlkruise

import (
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/kubectl/pkg/cmd/create"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

// NewCmdCreate is kubectl's create (-f, -k and its generators, unchanged), with `job`
// able to start a Job from an AdvancedCronJob and the Kruise generators `broadcastjob`
// (alias bcj) and `containerrecreaterequest` (alias crr), as OpenKruise's kubectl-kruise has them.
func NewCmdCreate(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	registerKruiseTypes()
	cmd := create.NewCmdCreate(f, streams)
	cmd.Example = strings.ReplaceAll(cmd.Example, "kubectl create", "kubectl kruise create")
	for _, sub := range cmd.Commands() {
		if sub.Name() == "job" {
			cmd.RemoveCommand(sub)
		}
	}
	cmd.AddCommand(newCmdCreateJob(f, streams), newCmdCreateBroadcastJob(f, streams), newCmdCreateCRR(f, streams))
	return cmd
}
