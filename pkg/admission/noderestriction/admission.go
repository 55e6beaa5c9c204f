// Package noderestriction limits what a node daemon's credentials may write, as kube's
// NodeRestriction does for kubelets: the daemon of node N may write the status of
// NodeImage N and the ContainerRecreateRequests of pods on N, nothing else of ours. A
// compromised node then cannot pull images onto, or restart containers of, other nodes.
package noderestriction

import (
	"context"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apiserver/pkg/admission"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/nodeidentity"
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
	case "nodeimages":
		return p.nodeImage(a, node)
	case "containerrecreaterequests":
		return p.recreateRequest(a, node)
	}
	return admission.NewForbidden(a, fmt.Errorf("node daemon of %s may not write %s", node, a.GetResource().Resource))
}

// nodeImage: only the status of the daemon's own NodeImage; the controller owns the rest.
func (p *Plugin) nodeImage(a admission.Attributes, node string) error {
	if a.GetOperation() != admission.Update || a.GetSubresource() != "status" {
		return admission.NewForbidden(a, fmt.Errorf("node daemon of %s may only update nodeimages/status", node))
	}
	if a.GetName() != node {
		return admission.NewForbidden(a, fmt.Errorf("node daemon of %s may not write the NodeImage of node %q", node, a.GetName()))
	}
	return nil
}

// recreateRequest: updates (spec.containers[*].statusContext, labels, status) of
// requests for pods on the daemon's node; the node label is what the stored object
// says, so a daemon cannot adopt another node's request by relabelling it.
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
	return nil
}
