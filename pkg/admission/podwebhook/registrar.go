package podwebhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"
)

// RegistrationFieldManager is the field manager the Registrar applies the
// configurations with. It never applies a match condition or the call scope's
// annotations: those are the CallScopeKeeper's (CallScopeFieldManager), so neither
// writer takes back what the other wrote.
const RegistrationFieldManager = "kruise-apiserver-registration"

// CallScopeFieldManager is the field manager of the CallScopeKeeper's patches.
const CallScopeFieldManager = "kruise-apiserver-call-scope"

// Registrar creates and updates the two configurations (ConfigurationName) that make
// kube-apiserver call kruise-apiserver's webhooks, from the handlers it serves and its
// flags. kruise-apiserver is their only owner: the deploy tooling (chart, kustomize base,
// local stack) installs none, so re-applying its manifests (a GitOps sync) cannot
// undo what the CallScopeKeeper narrowed.
//
// It applies them once at start (server-side apply, forced, as RegistrationFieldManager),
// after the handlers' caches have synced, so the first call finds a server that can
// answer it. Every replica applies the same content, so replicas agree; a replica of an
// older release keeps what it applied until it stops, and does not apply again.
// A registration deleted by hand stays deleted until kruise-apiserver restarts (the
// benchmark removes it to measure the cost of being registered).
type Registrar struct {
	client     kubernetes.Interface
	mutating   *admissionregistrationv1.MutatingWebhookConfiguration
	validating *admissionregistrationv1.ValidatingWebhookConfiguration
	// owner names the ClusterRole the configurations are owned by (ownerReferences):
	// deleting it (helm uninstall, kubectl delete -k) makes the garbage collector delete
	// them. Empty: no owner.
	owner  string
	synced []cache.InformerSynced
	done   atomic.Bool
}

// NewRegistrar registers the webhooks of handlers as opts says, owned by the ClusterRole
// owner (none when empty), once every synced function reports true.
func NewRegistrar(handlers []Handler, opts WebhookOptions, owner string, client kubernetes.Interface,
	synced ...cache.InformerSynced) (*Registrar, error) {
	mutating, validating, err := WebhookConfigurations(handlers, opts)
	if err != nil {
		return nil, err
	}
	return &Registrar{client: client, mutating: mutating, validating: validating, owner: owner, synced: synced}, nil
}

// registrationRetry bounds the wait between two attempts: RBAC or kube-apiserver may not
// be there yet.
const registrationRetry = 30 * time.Second

// Run applies the configurations, again after each failure, until one attempt succeeds
// or ctx ends.
func (r *Registrar) Run(ctx context.Context) {
	logger := klog.FromContext(ctx).WithValues("configuration", ConfigurationName)
	if !cache.WaitForCacheSync(ctx.Done(), r.synced...) {
		return
	}
	delay := 500 * time.Millisecond
	for {
		err := r.apply(ctx)
		if err == nil {
			r.done.Store(true)
			logger.Info("Registered the Pod webhook", "owner", r.owner)
			return
		}
		logger.Error(err, "Registering the Pod webhook", "retryAfter", delay)
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		delay = min(2*delay, registrationRetry)
	}
}

// Name and Check make the Registrar a readyz check: a replica is not Ready before it
// has registered, so a rollout or an install waits for the registration.
func (r *Registrar) Name() string { return "kruise-pod-webhook-registration" }

// Check fails until Run has applied the configurations.
func (r *Registrar) Check(*http.Request) error {
	if !r.done.Load() {
		return errors.New("the Pod webhook's configurations are not applied yet")
	}
	return nil
}

// apply writes both configurations.
func (r *Registrar) apply(ctx context.Context) error {
	owners, err := r.ownerReferences(ctx)
	if err != nil {
		return err
	}
	opts := metav1.PatchOptions{FieldManager: RegistrationFieldManager, Force: ptr.To(true)}
	api := r.client.AdmissionregistrationV1()
	if r.mutating != nil {
		c := r.mutating.DeepCopy()
		c.OwnerReferences, c.Labels = owners, registrationLabels
		body, err := applyBody(c)
		if err != nil {
			return err
		}
		if _, err := api.MutatingWebhookConfigurations().Patch(ctx, c.Name, types.ApplyPatchType, body, opts); err != nil {
			return fmt.Errorf("applying MutatingWebhookConfiguration %s: %w", c.Name, err)
		}
	}
	if r.validating != nil {
		c := r.validating.DeepCopy()
		c.OwnerReferences, c.Labels = owners, registrationLabels
		body, err := applyBody(c)
		if err != nil {
			return err
		}
		if _, err := api.ValidatingWebhookConfigurations().Patch(ctx, c.Name, types.ApplyPatchType, body, opts); err != nil {
			return fmt.Errorf("applying ValidatingWebhookConfiguration %s: %w", c.Name, err)
		}
	}
	return nil
}

// registrationLabels mark the configurations as kruise-apiserver's.
var registrationLabels = map[string]string{
	"app.kubernetes.io/part-of":    "kruise-native",
	"app.kubernetes.io/managed-by": "kruise-apiserver",
}

// ownerReferences point at the owner ClusterRole as it is now (its uid).
func (r *Registrar) ownerReferences(ctx context.Context) ([]metav1.OwnerReference, error) {
	if r.owner == "" {
		return nil, nil
	}
	role, err := r.client.RbacV1().ClusterRoles().Get(ctx, r.owner, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading ClusterRole %s, which owns the registrations: %w", r.owner, err)
	}
	// Neither controller nor blockOwnerDeletion: the role deletes at once, and its
	// dependents after it.
	return []metav1.OwnerReference{{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole", Name: role.Name, UID: role.UID}}, nil
}

// applyBody is obj as an apply request: its fields as set, without the zero
// creationTimestamp a typed object marshals.
func applyBody(obj any) ([]byte, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if meta, ok := m["metadata"].(map[string]any); ok {
		delete(meta, "creationTimestamp")
	}
	return json.Marshal(m)
}
