// Package admission lists kruise-apiserver's in-process admission plugins.
package admission

import (
	"k8s.io/apiserver/pkg/admission"

	"github.com/kruise-native/kruise-native/pkg/admission/deletionprotection"
)

// Register adds every Kruise plugin to the registry.
func Register(plugins *admission.Plugins) {
	deletionprotection.Register(plugins)
}

// PluginOrder is the order Kruise plugins run in, after the generic ones.
var PluginOrder = []string{deletionprotection.PluginName}
