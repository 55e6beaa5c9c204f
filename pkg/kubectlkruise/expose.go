package kubectlkruise

import (
	"fmt"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/kubectl/pkg/cmd/expose"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/polymorphichelpers"
)

// exposableKinds are the Kruise workloads `expose` makes a Service for, as OpenKruise's
// plugin does: their pods are selected by spec.selector and serve their template's ports.
var exposableKinds = map[schema.GroupKind]bool{
	{Group: Group, Kind: "CloneSet"}:    true,
	{Group: Group, Kind: "StatefulSet"}: true,
}

// NewCmdExpose is kubectl's expose (every flag and output), which also exposes
// CloneSets and Advanced StatefulSets.
func NewCmdExpose(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	installExposeHelpers()
	cmd := expose.NewCmdExposeService(f, streams)
	cmd.Long = "Expose a resource as a new Kubernetes service, as kubectl expose does; a CloneSet or an\n" +
		"Advanced StatefulSet is exposed with its selector (matchLabels only) and the ports of\n" +
		"its pod template.\n\n" + cmd.Long
	cmd.Example = "  # A Service for the CloneSet web on port 80, to its containers' port 8080\n" +
		"  kubectl kruise expose cloneset web --port=80 --target-port=8080\n\n" +
		"  # A headless Service for an Advanced StatefulSet\n" +
		"  kubectl kruise expose asts/db --cluster-ip=None --port=5432\n\n" +
		strings.ReplaceAll(cmd.Example, "kubectl expose", "kubectl kruise expose")
	return cmd
}

var exposeOnce sync.Once

// installExposeHelpers extends the polymorphic helpers kubectl's expose looks up when it
// runs: Kruise workloads are handled here, everything else by kubectl's own.
func installExposeHelpers() {
	exposeOnce.Do(func() {
		registerKruiseTypes()
		canBeExposed, selector := polymorphichelpers.CanBeExposedFn, polymorphichelpers.MapBasedSelectorForObjectFn
		ports, protocols := polymorphichelpers.PortsForObjectFn, polymorphichelpers.MultiProtocolsForObjectFn
		polymorphichelpers.CanBeExposedFn = func(kind schema.GroupKind) error {
			if exposableKinds[kind] {
				return nil
			}
			return canBeExposed(kind)
		}
		polymorphichelpers.MapBasedSelectorForObjectFn = func(obj runtime.Object) (string, error) {
			if _, sel, ok := kruiseWorkloadSelector(obj); ok {
				return exposeSelector(sel.MatchLabels, len(sel.MatchExpressions))
			}
			return selector(obj)
		}
		// Ports and protocols are kubectl's rules applied to the pod template.
		polymorphichelpers.PortsForObjectFn = func(obj runtime.Object) ([]string, error) {
			if tmpl, ok := exposableTemplate(obj); ok {
				return ports(&corev1.Pod{Spec: tmpl.Spec})
			}
			return ports(obj)
		}
		polymorphichelpers.MultiProtocolsForObjectFn = func(obj runtime.Object) (map[string][]string, error) {
			if tmpl, ok := exposableTemplate(obj); ok {
				return protocols(&corev1.Pod{Spec: tmpl.Spec})
			}
			return protocols(obj)
		}
	})
}

// exposeSelector is the Service selector for a workload selector: a Service selects by
// labels only, so expressions cannot be carried over.
func exposeSelector(matchLabels map[string]string, expressions int) (string, error) {
	if expressions > 0 {
		return "", fmt.Errorf("the selector has matchExpressions, which a Service selector cannot express: use --selector")
	}
	if len(matchLabels) == 0 {
		return "", fmt.Errorf("the selector has no matchLabels and cannot be exposed: use --selector")
	}
	return polymorphichelpers.MakeLabels(matchLabels), nil
}

func exposableTemplate(obj runtime.Object) (*corev1.PodTemplateSpec, bool) {
	if _, _, ok := kruiseWorkloadSelector(obj); !ok {
		return nil, false
	}
	return kruisePodTemplate(obj)
}
