// Package noderestriction limits what a node daemon's credentials may write, as kube's
// NodeRestriction does for kubelets: the daemon of node N may write the status of
// NodeImage N and NodePodProbe N and the ContainerRecreateRequests of pods on N, nothing
// else of ours. A compromised node then cannot pull images onto, restart containers of,
// or report probe results (and so move pod labels) for other nodes.
// Of a request, it may write only the daemon's fields (recreaterequest: writers.go).
package noderestriction

import (
	"context"
	"fmt"
	"io"
	"strings"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apiserver/pkg/admission"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/nodeidentity"
	"github.com/kruise-native/kruise-native/pkg/recreaterequest"
)

// PluginName is the name under --enable-admission-plugins / --disable-admission-plugins.
const PluginName = "KruiseNodeRestriction"

// Register adds the plugin to a plugin registry.
func Register(plugins *admission.Plugins) {
	plugins.Register(PluginName, func(io.Reader) (admission.Interface, error) { return New(), nil })
}

// Plugin rejects node daemon writes outside the daemon's own node.
type Plugin struct {
	*admission.Handler
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the plugin; every write is checked. Reads are left to RBAC, except the
// pull secrets of a NodeImage, which that subresource confines itself (reads run no
// admission).
func New() *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create, admission.Update, admission.Delete, admission.Connect)}
}

// Validate checks one write by a node daemon.
func (p *Plugin) Validate(_ context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	node, isDaemon := nodeidentity.NodeOf(a.GetUserInfo())
	if !isDaemon || a.GetResource().Group != apps.GroupName {
		return nil
	}
	if node == "" {
		return admission.NewForbidden(a, fmt.Errorf("node daemon %s has no node name in its credentials: "+
			"use a service account token bound to the Node object", a.GetUserInfo().GetName()))
	}
	switch a.GetResource().Resource {
	case "nodeimages", "nodepodprobes":
		return p.ownNodeStatus(a, node)
	case "containerrecreaterequests":
		return p.recreateRequest(a, node)
	}
	return admission.NewForbidden(a, fmt.Errorf("node daemon of %s may not write %s", node, a.GetResource().Resource))
}

// ownNodeStatus: of the per-node kinds (NodeImage, NodePodProbe, named after their
// node), only the status of the daemon's own; kruise-controller owns the rest.
func (p *Plugin) ownNodeStatus(a admission.Attributes, node string) error {
	resource := a.GetResource().Resource
	if a.GetOperation() != admission.Update || a.GetSubresource() != "status" {
		return admission.NewForbidden(a, fmt.Errorf("node daemon of %s may only update %s/status", node, resource))
	}
	if a.GetName() != node {
		return admission.NewForbidden(a, fmt.Errorf("node daemon of %s may not write the %s of node %q", node, resource, a.GetName()))
	}
	return nil
}

// recreateRequest: updates of requests for pods on the daemon's node, of the daemon's
// own fields only (recreaterequest: writers.go): spec.containers[*].statusContext,
// status.containerRecreateStates and the phase moves that are the daemon's (taking the
// request: Recreating). The node label is what the stored object says, so a daemon
// cannot adopt another node's request by relabelling it; the phase, message and
// completion time it may not write are kruise-controller's, so a daemon cannot end a
// request, or keep one alive that the controller ended.
func (p *Plugin) recreateRequest(a admission.Attributes, node string) error {
	if a.GetOperation() != admission.Update {
		return admission.NewForbidden(a, fmt.Errorf("node daemon of %s may only update containerrecreaterequests", node))
	}
	old := a.GetOldObject()
	if old == nil {
		return admission.NewForbidden(a, fmt.Errorf("node daemon of %s may only update existing containerrecreaterequests", node))
	}
	m, err := meta.Accessor(old)
	if err != nil {
		return admission.NewForbidden(a, err)
	}
	if got := m.GetLabels()[v1alpha1.ContainerRecreateRequestNodeNameKey]; got != node {
		where := "no node"
		if got != "" {
			where = "node " + strings.TrimSpace(got)
		}
		return admission.NewForbidden(a, fmt.Errorf("node daemon of %s may not write a ContainerRecreateRequest for a pod on %s", node, where))
	}
	oldCRR, ok := old.(*apps.ContainerRecreateRequest)
	newCRR, ok2 := a.GetObject().(*apps.ContainerRecreateRequest)
	if !ok || !ok2 {
		return admission.NewForbidden(a, fmt.Errorf("node daemon of %s: not a ContainerRecreateRequest", node))
	}
	if field := notTheDaemons(newCRR, oldCRR); field != "" {
		return admission.NewForbidden(a, fmt.Errorf("node daemon of %s may not write %s of a ContainerRecreateRequest: kruise-controller (or its creator) owns it", node, field))
	}
	return nil
}

// notTheDaemons names the first field the update changes that is not the daemon's to
// write, "" when there is none.
func notTheDaemons(crr, old *apps.ContainerRecreateRequest) string {
	switch {
	case !apiequality.Semantic.DeepEqual(crr.Labels, old.Labels):
		return "metadata.labels"
	case !apiequality.Semantic.DeepEqual(crr.Annotations, old.Annotations):
		return "metadata.annotations"
	case !apiequality.Semantic.DeepEqual(crr.Finalizers, old.Finalizers):
		return "metadata.finalizers"
	case !apiequality.Semantic.DeepEqual(crr.OwnerReferences, old.OwnerReferences):
		return "metadata.ownerReferences"
	case !apiequality.Semantic.DeepEqual(withoutStatusContexts(crr.Spec), withoutStatusContexts(old.Spec)):
		return "spec (other than containers[*].statusContext)"
	case crr.Status.Message != old.Status.Message:
		return "status.message"
	case !apiequality.Semantic.DeepEqual(crr.Status.CompletionTime, old.Status.CompletionTime):
		return "status.completionTime"
	}
	from, to := string(old.Status.Phase), string(crr.Status.Phase)
	if from != to && recreaterequest.PhaseWriter(from, to) != recreaterequest.Daemon {
		return fmt.Sprintf("status.phase (%q to %q)", from, to)
	}
	return ""
}

func withoutStatusContexts(spec apps.ContainerRecreateRequestSpec) apps.ContainerRecreateRequestSpec {
	out := *spec.DeepCopy()
	for i := range out.Containers {
		out.Containers[i].StatusContext = nil
	}
	return out
}
