// Package admission lists kruise-apiserver's in-process admission plugins.
package admission

import (
	"k8s.io/apiserver/pkg/admission"

	"github.com/kruise-native/kruise-native/pkg/admission/containerrecreaterequest"
	"github.com/kruise-native/kruise-native/pkg/admission/deletionprotection"
	"github.com/kruise-native/kruise-native/pkg/admission/noderestriction"
	"github.com/kruise-native/kruise-native/pkg/admission/podstodelete"
	"github.com/kruise-native/kruise-native/pkg/admission/podwebhookscope"
	"github.com/kruise-native/kruise-native/pkg/admission/resourcedistribution"
	"github.com/kruise-native/kruise-native/pkg/admission/sidecarsetconflict"
	"github.com/kruise-native/kruise-native/pkg/admission/targetconflict"
	"github.com/kruise-native/kruise-native/pkg/registry/kinds"
)

// Register adds every Kruise plugin to the registry.
func Register(plugins *admission.Plugins) {
	deletionprotection.Register(plugins, kinds.ActivePods)
	containerrecreaterequest.Register(plugins)
	noderestriction.Register(plugins)
	sidecarsetconflict.Register(plugins)
	targetconflict.Register(plugins)
	podwebhookscope.Register(plugins)
	resourcedistribution.Register(plugins)
	podstodelete.Register(plugins)
}

// PluginOrder is the order Kruise plugins run in, after the generic ones.
// Mutating plugins fill in objects first; the node restriction then judges the final
// object's writer. The Pod webhook's scope is widened last, for an object every other
// plugin let through.
var PluginOrder = []string{
	containerrecreaterequest.PluginName,
	deletionprotection.PluginName,
	sidecarsetconflict.PluginName,
	targetconflict.PluginName,
	resourcedistribution.PluginName,
	podstodelete.PluginName,
	noderestriction.PluginName,
	podwebhookscope.PluginName,
}
