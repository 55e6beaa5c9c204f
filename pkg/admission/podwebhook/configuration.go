package podwebhook

import (
	"fmt"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// ConfigurationName names both webhook configurations (they are of different kinds).
const ConfigurationName = "kruise-pod-webhook"

// webhookName names the entry of webhook w in the configuration of phase p:
// pods.mutate.kruise-native.io, pods.validate.kruise-native.io,
// deletion.validate.kruise-native.io.
func webhookName(w Webhook, p Phase) string { return string(w) + "." + string(p) + ".kruise-native.io" }

// operationOrder is the order operations are written in a rule.
var operationOrder = []admissionregistrationv1.OperationType{
	admissionregistrationv1.Create, admissionregistrationv1.Update, admissionregistrationv1.Delete,
}

// WebhookOptions are how kube-apiserver reaches the server and when it calls each
// webhook.
type WebhookOptions struct {
	// Name of the configurations; ConfigurationName when empty.
	Name string
	// ClientConfig reaches the server: a URL of scheme, host and port only, or a
	// Service without a path, and the CA bundle that verifies it. Each webhook's
	// path is added.
	ClientConfig admissionregistrationv1.WebhookClientConfig
	// Scope is the pod webhook's (both phases).
	Scope
	// ValidatingFailurePolicy is the validating Pod webhook entry's failure policy
	// (PodUnavailableBudget guard, WorkloadSpread release); Scope's when empty.
	ValidatingFailurePolicy admissionregistrationv1.FailurePolicyType
	// Deletion is the deletion-protection webhook's.
	Deletion Scope
}

// Scope is when kube-apiserver calls one webhook, and what a failed call does.
type Scope struct {
	// FailurePolicy decides what a call that fails (timeout, 5xx, unreachable) does
	// to the request; see README.md, "Webhooks while kruise-apiserver is down".
	FailurePolicy     admissionregistrationv1.FailurePolicyType
	NamespaceSelector *metav1.LabelSelector
	ObjectSelector    *metav1.LabelSelector
	TimeoutSeconds    int32
}

// scope is webhook w's.
func (o *WebhookOptions) scope(w Webhook) Scope {
	if w == DeletionWebhook {
		return o.Deletion
	}
	return o.Scope
}

// OptOutLabel on a namespace or a pod, with the value "disabled", keeps the webhook
// away from it.
const OptOutLabel = "kruise-native.io/pod-webhook"

// ExemptNamespaces are never in any webhook's scope: the control plane's and
// kruise-system, whose kruise-apiserver pods must never wait for the webhook they
// serve. For the Namespace resource itself kube-apiserver matches the namespace
// selector against the namespace being deleted, so these are not guarded either.
var ExemptNamespaces = []string{"kube-system", "kube-public", "kube-node-lease", "kruise-system"}

// DefaultWebhookOptions are the scopes and timeouts kruise-apiserver's webhooks are
// registered with (the trade-offs are in README.md, "Webhooks while kruise-apiserver is
// down"; kruise-apiserver's --pod-webhook-* flags change them):
//   - pods: every namespace but ExemptNamespaces, minus the namespaces and pods that
//     opt out; failurePolicy Ignore; 3 s.
//   - deletion: objects labelled policy.kruise.io/delete-protection Always or
//     Cascading outside ExemptNamespaces (an unlabelled delete never reaches us);
//     failurePolicy Ignore, a miss being counted by kruise-controller; 5 s, as a
//     Cascading check lists through kube-apiserver.
func DefaultWebhookOptions() WebhookOptions {
	optOut := metav1.LabelSelectorRequirement{Key: OptOutLabel, Operator: metav1.LabelSelectorOpNotIn, Values: []string{"disabled"}}
	notExempt := metav1.LabelSelectorRequirement{Key: "kubernetes.io/metadata.name", Operator: metav1.LabelSelectorOpNotIn,
		Values: ExemptNamespaces}
	return WebhookOptions{
		Scope: Scope{
			FailurePolicy:     admissionregistrationv1.Ignore,
			NamespaceSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{notExempt, optOut}},
			ObjectSelector:    &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{optOut}},
			TimeoutSeconds:    3,
		},
		Deletion: Scope{
			FailurePolicy:     admissionregistrationv1.Ignore,
			NamespaceSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{notExempt}},
			ObjectSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
				Key: pub.DeletionProtectionKey, Operator: metav1.LabelSelectorOpIn,
				Values: []string{pub.DeletionProtectionTypeAlways, pub.DeletionProtectionTypeCascading}}}},
			TimeoutSeconds: 5,
		},
	}
}

// WebhookConfigurations returns the configurations that make kube-apiserver call the
// handlers: for each phase, one webhook per registration (Webhook) that has handlers
// in it, whose rules are exactly those handlers' rules (per resource, the union of
// the operations declared on it). A phase without handlers has no configuration
// (nil).
func WebhookConfigurations(handlers []Handler, opts WebhookOptions) (*admissionregistrationv1.MutatingWebhookConfiguration,
	*admissionregistrationv1.ValidatingWebhookConfiguration, error) {
	if err := validateHandlers(handlers); err != nil {
		return nil, nil, err
	}
	if opts.Name == "" {
		opts.Name = ConfigurationName
	}
	var mutatingHooks []admissionregistrationv1.MutatingWebhook
	var validatingHooks []admissionregistrationv1.ValidatingWebhook
	for _, w := range webhookOrder {
		scope := opts.scope(w)
		if rules := phaseRules(handlers, Mutating, w); len(rules) > 0 {
			client, err := clientConfigFor(opts.ClientConfig, endpointPath(Mutating, w))
			if err != nil {
				return nil, nil, err
			}
			mutatingHooks = append(mutatingHooks, admissionregistrationv1.MutatingWebhook{
				Name:                    webhookName(w, Mutating),
				ClientConfig:            client,
				Rules:                   rules,
				FailurePolicy:           ptr.To(scope.FailurePolicy),
				MatchPolicy:             ptr.To(admissionregistrationv1.Equivalent),
				NamespaceSelector:       scope.NamespaceSelector,
				ObjectSelector:          scope.ObjectSelector,
				SideEffects:             ptr.To(podWebhookSideEffects(w)),
				TimeoutSeconds:          ptr.To(scope.TimeoutSeconds),
				AdmissionReviewVersions: []string{"v1"},
				// The handlers complete a pod once; what later webhooks add is not theirs.
				ReinvocationPolicy: ptr.To(admissionregistrationv1.NeverReinvocationPolicy),
			})
		}
		if rules := phaseRules(handlers, Validating, w); len(rules) > 0 {
			client, err := clientConfigFor(opts.ClientConfig, endpointPath(Validating, w))
			if err != nil {
				return nil, nil, err
			}
			policy := scope.FailurePolicy
			if w == PodWebhook && opts.ValidatingFailurePolicy != "" {
				policy = opts.ValidatingFailurePolicy
			}
			validatingHooks = append(validatingHooks, admissionregistrationv1.ValidatingWebhook{
				Name:                    webhookName(w, Validating),
				ClientConfig:            client,
				Rules:                   rules,
				FailurePolicy:           ptr.To(policy),
				MatchPolicy:             ptr.To(admissionregistrationv1.Equivalent),
				NamespaceSelector:       scope.NamespaceSelector,
				ObjectSelector:          scope.ObjectSelector,
				SideEffects:             ptr.To(podWebhookSideEffects(w)),
				TimeoutSeconds:          ptr.To(scope.TimeoutSeconds),
				AdmissionReviewVersions: []string{"v1"},
			})
		}
	}
	var mutating *admissionregistrationv1.MutatingWebhookConfiguration
	if len(mutatingHooks) > 0 {
		mutating = &admissionregistrationv1.MutatingWebhookConfiguration{
			TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "MutatingWebhookConfiguration"},
			ObjectMeta: metav1.ObjectMeta{Name: opts.Name},
			Webhooks:   mutatingHooks,
		}
	}
	var validating *admissionregistrationv1.ValidatingWebhookConfiguration
	if len(validatingHooks) > 0 {
		validating = &admissionregistrationv1.ValidatingWebhookConfiguration{
			TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "ValidatingWebhookConfiguration"},
			ObjectMeta: metav1.ObjectMeta{Name: opts.Name},
			Webhooks:   validatingHooks,
		}
	}
	return mutating, validating, nil
}

// phaseRules are the webhook rules of the handlers of webhook w in the phase: one per resource, in the
// order the list first names it, with the union of the operations declared on it.
// Operations are never pooled across resources, so no resource gets an operation no
// handler asked for.
func phaseRules(handlers []Handler, phase Phase, w Webhook) []admissionregistrationv1.RuleWithOperations {
	var resources []Resource
	ops := map[Resource]map[admissionregistrationv1.OperationType]bool{}
	for i := range handlers {
		h := &handlers[i]
		if h.Phase() != phase || h.WebhookName() != w {
			continue
		}
		for _, r := range h.Rules {
			if ops[r.Resource] == nil {
				ops[r.Resource] = map[admissionregistrationv1.OperationType]bool{}
				resources = append(resources, r.Resource)
			}
			for _, op := range r.Operations {
				ops[r.Resource][op] = true
			}
		}
	}
	var out []admissionregistrationv1.RuleWithOperations
	for _, r := range resources {
		rule := admissionregistrationv1.RuleWithOperations{Rule: admissionregistrationv1.Rule{
			APIGroups:   []string{r.Group},
			APIVersions: []string{r.Version},
			Resources:   []string{r.String()},
			Scope:       ptr.To(r.Scope),
		}}
		for _, op := range operationOrder {
			if ops[r][op] {
				rule.Operations = append(rule.Operations, op)
			}
		}
		out = append(out, rule)
	}
	return out
}

// clientConfigFor is base with the phase's path.
func clientConfigFor(base admissionregistrationv1.WebhookClientConfig, path string) (admissionregistrationv1.WebhookClientConfig, error) {
	out := *base.DeepCopy()
	switch {
	case (out.URL == nil) == (out.Service == nil):
		return out, fmt.Errorf("the webhook client config needs exactly one of a URL and a Service")
	case out.URL != nil:
		// Checked on the text rather than parsed, so a placeholder port
		// (${KRUISE_APISERVER_PORT}, substituted at deploy time) passes through.
		scheme, hostPort, ok := strings.Cut(*out.URL, "://")
		if !ok || scheme != "https" || hostPort == "" || strings.ContainsAny(hostPort, "/?#") {
			return out, fmt.Errorf("webhook URL %q: want https://host:port only (the path is the phase's)", *out.URL)
		}
		out.URL = ptr.To(*out.URL + path)
	default:
		if out.Service.Path != nil {
			return out, fmt.Errorf("webhook Service %s/%s: leave the path out (it is the phase's)", out.Service.Namespace, out.Service.Name)
		}
		out.Service.Path = ptr.To(path)
	}
	return out, nil
}

// podWebhookSideEffects: the pod webhook writes status when it admits a request, and
// nothing on a dry run: the PodUnavailableBudget guard spends a budget on a disruption
// (validating), WorkloadSpread reserves a subset slot for a new pod (mutating) and
// frees it for a deleted one (validating).
func podWebhookSideEffects(w Webhook) admissionregistrationv1.SideEffectClass {
	if w == PodWebhook {
		return admissionregistrationv1.SideEffectClassNoneOnDryRun
	}
	return admissionregistrationv1.SideEffectClassNone
}
