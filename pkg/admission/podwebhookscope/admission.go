// Package podwebhookscope widens the Pod webhook's registrations before a SidecarSet,
// WorkloadSpread, PersistentPodState or PodUnavailableBudget that changes which requests the webhook must
// see is stored: kube-apiserver calls the webhook only for the requests the
// registrations' match conditions pick (podwebhook.CallScopeKeeper), and a pod created
// right after its SidecarSet, or evicted right after its budget's creation, must not
// be skipped. A create or update whose clauses cannot be written is refused with 503:
// storing it would leave its pods unserved without a word.
package podwebhookscope

import (
	"context"
	"errors"
	"fmt"
	"io"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apiserver/pkg/admission"

	kruiseinitializer "github.com/kruise-native/kruise-native/pkg/admission/initializer"
)

// PluginName is the name under --enable-admission-plugins / --disable-admission-plugins.
const PluginName = "KruisePodWebhookScope"

// Register adds the plugin to a plugin registry.
func Register(plugins *admission.Plugins) {
	plugins.Register(PluginName, func(io.Reader) (admission.Interface, error) { return New(), nil })
}

// Plugin widens the scope for admitted SidecarSets, WorkloadSpreads and
// PodUnavailableBudgets (podwebhook.ObjectCallClauses decides which objects have
// clauses).
type Plugin struct {
	*admission.Handler
	scope kruiseinitializer.PodWebhookScope
	// unset: the server runs without a Pod webhook, which has no scope to widen.
	unset bool
}

var (
	_ admission.ValidationInterface          = &Plugin{}
	_ kruiseinitializer.WantsPodWebhookScope = &Plugin{}
)

// New returns the plugin; it acts on creates and updates.
func New() *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create, admission.Update)}
}

// SetPodWebhookScope gives the plugin the keeper; nil when the server serves no Pod
// webhook (or keeps no scope), and the plugin does nothing.
func (p *Plugin) SetPodWebhookScope(w kruiseinitializer.PodWebhookScope) {
	p.scope, p.unset = w, w == nil
}

// ValidateInitialization fails server start-up when nobody said whether there is a scope.
func (p *Plugin) ValidateInitialization() error {
	if p.scope == nil && !p.unset {
		return errors.New("no Pod webhook scope given")
	}
	return nil
}

// Validate runs after every mutation: the clauses are the stored object's.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if p.scope == nil || a.GetSubresource() != "" || a.IsDryRun() {
		return nil
	}
	if err := p.scope.Widen(ctx, a.GetObject()); err != nil {
		return apierrors.NewServiceUnavailable(fmt.Sprintf("the Pod webhook's registration could not be widened for this %s, retry: %v",
			a.GetKind().Kind, err))
	}
	return nil
}
