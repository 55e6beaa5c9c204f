package podwebhook

import (
	"fmt"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// ConfigurationName names both webhook configurations (they are of different kinds).
const ConfigurationName = "kruise-pod-webhook"

// Webhook names, one per configuration.
const (
	mutatingWebhookName   = "pods.mutate.kruise-native.io"
	validatingWebhookName = "pods.validate.kruise-native.io"
)

// operationOrder is the order operations are written in a rule.
var operationOrder = []admissionregistrationv1.OperationType{
	admissionregistrationv1.Create, admissionregistrationv1.Update, admissionregistrationv1.Delete,
}

// WebhookOptions are how kube-apiserver reaches the server and when it calls it.
type WebhookOptions struct {
	// Name of the configurations; ConfigurationName when empty.
	Name string
	// ClientConfig reaches the server: a URL of scheme, host and port only, or a
	// Service without a path, and the CA bundle that verifies it. Each phase's path
	// is added.
	ClientConfig admissionregistrationv1.WebhookClientConfig
	// FailurePolicy decides what a call that fails (timeout, 5xx, unreachable) does
	// to the request; see artifacts/deploy/apiserver/pod-webhook.yaml.
	FailurePolicy     admissionregistrationv1.FailurePolicyType
	NamespaceSelector *metav1.LabelSelector
	ObjectSelector    *metav1.LabelSelector
	TimeoutSeconds    int32
}

// OptOutLabel on a namespace or a pod, with the value "disabled", keeps the webhook
// away from it.
const OptOutLabel = "kruise-native.io/pod-webhook"

// DefaultWebhookOptions are the scope and timeout kruise-apiserver's webhook is
// registered with: every namespace but the control plane's and kruise-system (whose
// kruise-apiserver pods must never wait for the webhook they serve), minus the
// namespaces and pods that opt out; failurePolicy Ignore; 3 s.
func DefaultWebhookOptions() WebhookOptions {
	optOut := metav1.LabelSelectorRequirement{Key: OptOutLabel, Operator: metav1.LabelSelectorOpNotIn, Values: []string{"disabled"}}
	return WebhookOptions{
		FailurePolicy: admissionregistrationv1.Ignore,
		NamespaceSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "kubernetes.io/metadata.name", Operator: metav1.LabelSelectorOpNotIn,
				Values: []string{"kube-system", "kube-public", "kube-node-lease", "kruise-system"}},
			optOut,
		}},
		ObjectSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{optOut}},
		TimeoutSeconds: 3,
	}
}

// WebhookConfigurations returns the configurations that make kube-apiserver call the
// handlers: for each phase, one webhook whose rules are exactly the handlers' rules
// (per resource, the union of the operations declared on it). A phase without
// handlers has no configuration (nil).
func WebhookConfigurations(handlers []Handler, opts WebhookOptions) (*admissionregistrationv1.MutatingWebhookConfiguration,
	*admissionregistrationv1.ValidatingWebhookConfiguration, error) {
	if err := validateHandlers(handlers); err != nil {
		return nil, nil, err
	}
	if opts.Name == "" {
		opts.Name = ConfigurationName
	}
	var mutating *admissionregistrationv1.MutatingWebhookConfiguration
	if rules := phaseRules(handlers, Mutating); len(rules) > 0 {
		client, err := clientConfigFor(opts.ClientConfig, MutatePath)
		if err != nil {
			return nil, nil, err
		}
		mutating = &admissionregistrationv1.MutatingWebhookConfiguration{
			TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "MutatingWebhookConfiguration"},
			ObjectMeta: metav1.ObjectMeta{Name: opts.Name},
			Webhooks: []admissionregistrationv1.MutatingWebhook{{
				Name:                    mutatingWebhookName,
				ClientConfig:            client,
				Rules:                   rules,
				FailurePolicy:           ptr.To(opts.FailurePolicy),
				MatchPolicy:             ptr.To(admissionregistrationv1.Equivalent),
				NamespaceSelector:       opts.NamespaceSelector,
				ObjectSelector:          opts.ObjectSelector,
				SideEffects:             ptr.To(admissionregistrationv1.SideEffectClassNone),
				TimeoutSeconds:          ptr.To(opts.TimeoutSeconds),
				AdmissionReviewVersions: []string{"v1"},
				// The handlers complete a pod once; what later webhooks add is not theirs.
				ReinvocationPolicy: ptr.To(admissionregistrationv1.NeverReinvocationPolicy),
			}},
		}
	}
	var validating *admissionregistrationv1.ValidatingWebhookConfiguration
	if rules := phaseRules(handlers, Validating); len(rules) > 0 {
		client, err := clientConfigFor(opts.ClientConfig, ValidatePath)
		if err != nil {
			return nil, nil, err
		}
		validating = &admissionregistrationv1.ValidatingWebhookConfiguration{
			TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "ValidatingWebhookConfiguration"},
			ObjectMeta: metav1.ObjectMeta{Name: opts.Name},
			Webhooks: []admissionregistrationv1.ValidatingWebhook{{
				Name:              validatingWebhookName,
				ClientConfig:      client,
				Rules:             rules,
				FailurePolicy:     ptr.To(opts.FailurePolicy),
				MatchPolicy:       ptr.To(admissionregistrationv1.Equivalent),
				NamespaceSelector: opts.NamespaceSelector,
				ObjectSelector:    opts.ObjectSelector,
				// The PodUnavailableBudget guard spends a budget (a status write) when it
				// admits a disruption, and nothing on a dry run.
				SideEffects:             ptr.To(admissionregistrationv1.SideEffectClassNoneOnDryRun),
				TimeoutSeconds:          ptr.To(opts.TimeoutSeconds),
				AdmissionReviewVersions: []string{"v1"},
			}},
		}
	}
	return mutating, validating, nil
}

// phaseRules are the webhook rules of the phase's handlers: one per resource, in the
// order the list first names it, with the union of the operations declared on it.
// Operations are never pooled across resources, so no resource gets an operation no
// handler asked for.
func phaseRules(handlers []Handler, phase Phase) []admissionregistrationv1.RuleWithOperations {
	var resources []Resource
	ops := map[Resource]map[admissionregistrationv1.OperationType]bool{}
	for i := range handlers {
		h := &handlers[i]
		if h.Phase() != phase {
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
