package podwebhook

import (
	"context"
	"fmt"
	"slices"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

// Handler is one rule of the webhook: what requests it acts on and what it does with
// them. The server runs a request's handlers in the order of the list it was built
// with; the webhook configurations are generated from the same list
// (WebhookConfigurations), so kube-apiserver sends exactly the requests some handler
// declared.
type Handler struct {
	// Name identifies the handler in logs and errors; unique within a list.
	Name string
	// Webhook is the registration the handler is served under: its path and its
	// scope (selectors, failurePolicy). Empty is PodWebhook.
	Webhook Webhook
	// Rules are the requests the handler acts on.
	Rules []Rule
	// Synced, if set, reports whether the caches the handler reads have synced. Until
	// then the server answers 503 to the requests the handler would see, and
	// kube-apiserver applies the configuration's failurePolicy.
	Synced func() bool

	// Exactly one of Mutate and Validate is set. Each returns nil to let the request
	// through, an error made by Deny or DenyWith to refuse it, and any other error
	// when it cannot decide (an error response: the failurePolicy applies).

	// Mutate changes the pod being created or updated in place; it sees what the
	// handlers before it changed. The server sends kube-apiserver one patch from the
	// pod it received to the pod the last handler left.
	Mutate func(ctx context.Context, req *admissionv1.AdmissionRequest, pod *corev1.Pod) error
	// Applies, if set on a mutating handler, is a check made before the pod is decoded
	// (from a cache, or the request's raw bytes): false promises that Mutate would leave
	// this request's pod as it came. When every matching handler says so, the server
	// answers without decoding the pod: most pod creates in a cluster match no
	// SidecarSet, spread or launch priority, and decoding each was most of the
	// webhook's cost.
	Applies func(req *admissionv1.AdmissionRequest) (bool, error)
	// CallClauses, set on every handler of the pod webhook, are the requests it may act
	// on (the creates it may change, the disruptions it may refuse), for kube-apiserver
	// to decide before calling (see CallClauses): a request none of its phase's clauses
	// is true for is never sent. A handler without it has its phase's webhook called
	// for every request its rules match.
	CallClauses func() (CallClauses, error)
	// Validate decides on the request (its Object, OldObject, Options); kube-apiserver
	// calls it after every mutation, its own and every other webhook's.
	Validate func(ctx context.Context, req *admissionv1.AdmissionRequest) error
}

// Rule is a set of operations on one resource.
type Rule struct {
	Operations []admissionregistrationv1.OperationType
	Resource   Resource
}

// Resource names what a rule matches: a resource, or one of its subresources.
type Resource struct {
	Group, Version, Resource, Subresource string
	Scope                                 admissionregistrationv1.ScopeType
}

// The resources the Pod webhook's handlers act on.
var (
	Pods         = Resource{Version: "v1", Resource: "pods", Scope: admissionregistrationv1.NamespacedScope}
	PodEvictions = Resource{Version: "v1", Resource: "pods", Subresource: "eviction", Scope: admissionregistrationv1.NamespacedScope}
	// PodResizes: kube v1.33+ changes container resources only through this
	// subresource (in-place vertical scaling), a pod update the budgets guard.
	PodResizes = Resource{Version: "v1", Resource: "pods", Subresource: "resize", Scope: admissionregistrationv1.NamespacedScope}
)

// The resources the deletion-protection webhook acts on.
var (
	Namespaces = Resource{Version: "v1", Resource: "namespaces", Scope: admissionregistrationv1.ClusterScope}
	CRDs       = Resource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions",
		Scope: admissionregistrationv1.ClusterScope}
	Deployments  = Resource{Group: "apps", Version: "v1", Resource: "deployments", Scope: admissionregistrationv1.NamespacedScope}
	ReplicaSets  = Resource{Group: "apps", Version: "v1", Resource: "replicasets", Scope: admissionregistrationv1.NamespacedScope}
	StatefulSets = Resource{Group: "apps", Version: "v1", Resource: "statefulsets", Scope: admissionregistrationv1.NamespacedScope}
	// Services and Ingresses (OpenKruise v1.8+): only Always applies, they have no
	// children the Cascading rule counts.
	Services  = Resource{Version: "v1", Resource: "services", Scope: admissionregistrationv1.NamespacedScope}
	Ingresses = Resource{Group: "networking.k8s.io", Version: "v1", Resource: "ingresses", Scope: admissionregistrationv1.NamespacedScope}
)

// String is the resource as a webhook rule writes it (pods, pods/eviction, pods/resize).
func (r Resource) String() string {
	if r.Subresource == "" {
		return r.Resource
	}
	return r.Resource + "/" + r.Subresource
}

// Phase is the kind of webhook a handler belongs to: kube-apiserver calls all
// mutating webhooks, then all validating ones, each on its own path.
type Phase string

const (
	Mutating   Phase = "mutate"
	Validating Phase = "validate"
)

// Webhook is a registration of its own: one webhook entry per phase in the
// configurations, with its own path and scope (WebhookOptions), so a handler on
// another resource than pods (deletion protection of Namespaces, CRDs, workloads)
// is never called for pods, nor pods' handlers for it.
type Webhook string

const (
	// PodWebhook is the pod webhook (Handler.Webhook empty).
	PodWebhook Webhook = "pods"
	// DeletionWebhook validates deletions of objects carrying
	// policy.kruise.io/delete-protection.
	DeletionWebhook Webhook = "deletion"
)

// webhookOrder is the order webhooks are written in a configuration.
var webhookOrder = []Webhook{PodWebhook, DeletionWebhook}

// Paths where kruise-apiserver serves each phase of each webhook:
// /admission/<phase>/<webhook>.
const (
	MutatePath           = "/admission/mutate/pods"
	ValidatePath         = "/admission/validate/pods"
	ValidateDeletionPath = "/admission/validate/deletion"
)

// Path is where the server serves the phase of the pod webhook.
func (p Phase) Path() string { return endpointPath(p, PodWebhook) }

// endpointPath is where the server serves the phase of webhook w.
func endpointPath(p Phase, w Webhook) string { return "/admission/" + string(p) + "/" + string(w) }

// WebhookName is the registration the handler belongs to.
func (h *Handler) WebhookName() Webhook {
	if h.Webhook == "" {
		return PodWebhook
	}
	return h.Webhook
}

// Phase is whether the handler mutates or validates.
func (h *Handler) Phase() Phase {
	if h.Mutate != nil {
		return Mutating
	}
	return Validating
}

// matches reports whether one of the handler's rules covers req. With matchPolicy
// Equivalent kube-apiserver sends the request in the version the rule names.
func (h *Handler) matches(req *admissionv1.AdmissionRequest) bool {
	for _, r := range h.Rules {
		if req.Resource.Group != r.Resource.Group || req.Resource.Version != r.Resource.Version ||
			req.Resource.Resource != r.Resource.Resource || req.SubResource != r.Resource.Subresource {
			continue
		}
		for _, op := range r.Operations {
			if string(op) == string(req.Operation) {
				return true
			}
		}
	}
	return false
}

// servedOperations are the operations a rule may name: CONNECT requests carry no
// object, and "*" would widen the configuration past what the handler declares.
var servedOperations = sets.New(admissionregistrationv1.Create, admissionregistrationv1.Update, admissionregistrationv1.Delete)

// validateHandlers rejects a list the server could not serve as declared. The server
// and the configuration generator both check it, so neither accepts a list the other
// would refuse.
func validateHandlers(handlers []Handler) error {
	names := sets.New[string]()
	for i := range handlers {
		h := &handlers[i]
		if h.Name == "" {
			return fmt.Errorf("handler %d has no name", i)
		}
		if names.Has(h.Name) {
			return fmt.Errorf("handler name %q used twice", h.Name)
		}
		names.Insert(h.Name)
		if (h.Mutate == nil) == (h.Validate == nil) {
			return fmt.Errorf("handler %s: set exactly one of Mutate and Validate", h.Name)
		}
		if !slices.Contains(webhookOrder, h.WebhookName()) {
			return fmt.Errorf("handler %s: unknown webhook %q", h.Name, h.Webhook)
		}
		if len(h.Rules) == 0 {
			return fmt.Errorf("handler %s declares no rules", h.Name)
		}
		for _, r := range h.Rules {
			if len(r.Operations) == 0 {
				return fmt.Errorf("handler %s: a rule on %s names no operations", h.Name, r.Resource)
			}
			for _, op := range r.Operations {
				if !servedOperations.Has(op) {
					return fmt.Errorf("handler %s: operation %q is not one of CREATE, UPDATE, DELETE", h.Name, op)
				}
			}
			if r.Resource.Version == "" || r.Resource.Resource == "" || r.Resource.Scope == "" {
				return fmt.Errorf("handler %s: resource %+v needs a version, a resource and a scope", h.Name, r.Resource)
			}
			// A mutating handler is given the pod to change; other objects (an
			// Eviction, a DeleteOptions) have no patch the server knows how to write.
			if h.WebhookName() == PodWebhook && r.Resource != Pods && r.Resource != PodEvictions && r.Resource != PodResizes {
				return fmt.Errorf("handler %s: the pod webhook serves pods, pods/eviction and pods/resize, not %s", h.Name, r.Resource)
			}
			if h.Mutate != nil && (h.WebhookName() != PodWebhook || r.Resource != Pods || sets.New(r.Operations...).Has(admissionregistrationv1.Delete)) {
				return fmt.Errorf("handler %s: a mutating handler acts on pod creates and updates only, not %v %s",
					h.Name, r.Operations, r.Resource)
			}
		}
	}
	return nil
}
