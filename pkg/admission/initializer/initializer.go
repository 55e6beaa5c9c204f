// Package initializer hands kruise-apiserver's admission plugins what they need
// beyond the generic initializer (which already provides kube's client and informers):
// informers on the Kruise API itself, served through the loopback client, and the Pod
// webhook's call scope.
package initializer

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"

	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
)

// WantsKruiseInformerFactory is implemented by plugins that read Kruise objects.
type WantsKruiseInformerFactory interface {
	SetKruiseInformerFactory(kruiseinformers.SharedInformerFactory)
	admission.InitializationValidator
}

// PodWebhookScope adds the clauses of an object being admitted to the Pod webhook's
// registrations and returns once they are written (podwebhook.CallScopes); an object
// that has none is left alone.
type PodWebhookScope interface {
	Widen(ctx context.Context, obj runtime.Object) error
}

// WantsPodWebhookScope is implemented by plugins that widen the Pod webhook's scope.
// They are given nil when the server serves no Pod webhook.
type WantsPodWebhookScope interface {
	SetPodWebhookScope(PodWebhookScope)
	admission.InitializationValidator
}

type pluginInitializer struct {
	informers kruiseinformers.SharedInformerFactory
	scope     PodWebhookScope
}

var _ admission.PluginInitializer = pluginInitializer{}

// New returns an initializer handing out the given factory and scope (nil: none).
func New(informers kruiseinformers.SharedInformerFactory, scope PodWebhookScope) admission.PluginInitializer {
	return pluginInitializer{informers: informers, scope: scope}
}

// Initialize gives each plugin what it asks for.
func (i pluginInitializer) Initialize(plugin admission.Interface) {
	if wants, ok := plugin.(WantsKruiseInformerFactory); ok {
		wants.SetKruiseInformerFactory(i.informers)
	}
	if wants, ok := plugin.(WantsPodWebhookScope); ok {
		wants.SetPodWebhookScope(i.scope)
	}
}
