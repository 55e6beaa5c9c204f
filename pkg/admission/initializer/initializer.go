// Package initializer hands kruise-apiserver's admission plugins what they need
// beyond the generic initializer (which already provides kube's client and informers):
// informers on the Kruise API itself, served through the loopback client.
package initializer

import (
	"k8s.io/apiserver/pkg/admission"

	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
)

// WantsKruiseInformerFactory is implemented by plugins that read Kruise objects.
type WantsKruiseInformerFactory interface {
	SetKruiseInformerFactory(kruiseinformers.SharedInformerFactory)
	admission.InitializationValidator
}

type pluginInitializer struct {
	informers kruiseinformers.SharedInformerFactory
}

var _ admission.PluginInitializer = pluginInitializer{}

// New returns an initializer handing out the given factory.
func New(informers kruiseinformers.SharedInformerFactory) admission.PluginInitializer {
	return pluginInitializer{informers: informers}
}

// Initialize gives each plugin that asks for it the Kruise informer factory.
func (i pluginInitializer) Initialize(plugin admission.Interface) {
	if wants, ok := plugin.(WantsKruiseInformerFactory); ok {
		wants.SetKruiseInformerFactory(i.informers)
	}
}
