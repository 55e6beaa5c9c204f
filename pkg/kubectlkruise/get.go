package kubectlkruise

import (
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/kubectl/pkg/cmd/get"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

// kruiseAll are the resources `kubectl kruise get all` adds to kubectl's `all`
// category, in OpenKruise's plugin's order. The Kruise kinds are deliberately not in
// the `all` category themselves (kubectl get all must stay as it is), they are in
// `kruise`. Kruise Rollout's rollouts are listed where that API is served.
var kruiseAll = []schema.GroupResource{
	{Group: Group, Resource: "clonesets"},
	{Group: Group, Resource: "statefulsets"},
	{Group: Group, Resource: "daemonsets"},
	{Group: "rollouts.kruise.io", Resource: "rollouts"},
	{Group: Group, Resource: "broadcastjobs"},
	{Group: Group, Resource: "containerrecreaterequests"},
	{Group: Group, Resource: "advancedcronjobs"},
	{Group: Group, Resource: "resourcedistributions"},
	{Group: Group, Resource: "uniteddeployments"},
}

// NewCmdGet is kubectl's get (every flag, printer and resource as in kubectl), where
// the type `all` also lists the Kruise workloads.
func NewCmdGet(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	cmd := get.NewCmdGet("kubectl kruise", f, streams)
	cmd.Long = "Display one or many resources, as kubectl get does. The type \"all\" is kubectl's\n" +
		"all category plus the Kruise workloads: " + groupResources(kruiseAll) + ".\n\n" + cmd.Long
	cmd.Example = "  # Pods, Services, workloads and the Kruise workloads of a namespace\n" +
		"  kubectl kruise get all -n demo\n\n" +
		"  # Every Kruise object (the kruise category)\n" +
		"  kubectl kruise get kruise -A"
	kubectlRun := cmd.Run
	cmd.Run = func(cmd *cobra.Command, args []string) {
		if len(args) > 0 && wantsAll(args[0]) {
			mapper, err := f.ToRESTMapper()
			cmdutil.CheckErr(err)
			args = append([]string{expandAll(args[0], mapper)}, args[1:]...)
		}
		kubectlRun(cmd, args)
	}
	return cmd
}

// wantsAll reports whether a get's TYPE argument (TYPE[,TYPE...]) names `all`.
func wantsAll(types string) bool {
	if strings.Contains(types, "/") {
		return false
	}
	for _, t := range strings.Split(types, ",") {
		if t == "all" {
			return true
		}
	}
	return false
}

// expandAll adds the Kruise resources the server serves after `all` in a TYPE list;
// a resource the server lacks is left out rather than failing the whole get.
func expandAll(types string, mapper meta.RESTMapper) string {
	var out []string
	for _, t := range strings.Split(types, ",") {
		out = append(out, t)
		if t != "all" {
			continue
		}
		for _, gr := range kruiseAll {
			if _, err := mapper.KindFor(gr.WithVersion("")); err == nil {
				out = append(out, gr.String())
			}
		}
	}
	return strings.Join(out, ",")
}

func groupResources(grs []schema.GroupResource) string {
	names := make([]string, len(grs))
	for i, gr := range grs {
		names[i] = gr.String()
	}
	return strings.Join(names, ", ")
}
