package podwebhook

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/utils/ptr"
)

// declared is one (operation, resource) a handler of a phase acts on, or a rule sends.
type declared struct {
	webhook                  string // the webhook entry's name
	phase                    Phase
	op                       admissionregistrationv1.OperationType
	group, version, resource string
	scope                    admissionregistrationv1.ScopeType
}

func declarations(handlers []Handler) sets.Set[declared] {
	out := sets.New[declared]()
	for _, h := range handlers {
		for _, r := range h.Rules {
			for _, op := range r.Operations {
				out.Insert(declared{webhookName(h.WebhookName(), h.Phase()), h.Phase(), op, r.Resource.Group, r.Resource.Version, r.Resource.String(), r.Resource.Scope})
			}
		}
	}
	return out
}

func registered(webhook string, phase Phase, rules []admissionregistrationv1.RuleWithOperations) sets.Set[declared] {
	out := sets.New[declared]()
	for _, r := range rules {
		for _, op := range r.Operations {
			for _, g := range r.APIGroups {
				for _, v := range r.APIVersions {
					for _, res := range r.Resources {
						out.Insert(declared{webhook, phase, op, g, v, res, ptr.Deref(r.Scope, "")})
					}
				}
			}
		}
	}
	return out
}

func urlOptions() WebhookOptions {
	o := DefaultWebhookOptions()
	o.ClientConfig.URL = ptr.To("https://127.0.0.1:9443")
	o.ClientConfig.CABundle = []byte("ca")
	return o
}

// The configurations send kube-apiserver's requests to exactly the (operation,
// resource) pairs the handlers declare: nothing a handler did not ask for, nothing a
// handler asked for missing.
func TestGeneratedRulesEqualDeclarations(t *testing.T) {
	var c calls
	lists := map[string][]Handler{
		"kruise-apiserver": EveryHandler(),
		"mixed": {
			c.mutating("inject", nil, rule(Pods, opCreate)),
			c.validating("pub", nil, rule(Pods, opDelete, opUpdate), rule(PodEvictions, opCreate)),
			c.mutating("spread", nil, rule(Pods, opCreate, opUpdate)),
			inWebhook(DeletionWebhook, c.validating("protect", nil, rule(Deployments, opDelete), rule(Namespaces, opDelete))),
			c.validating("again", nil, rule(Pods, opDelete)),
		},
	}
	for name, handlers := range lists {
		t.Run(name, func(t *testing.T) {
			mutating, validating, err := WebhookConfigurations(handlers, urlOptions())
			if err != nil {
				t.Fatal(err)
			}
			got := sets.New[declared]()
			if mutating != nil {
				for _, w := range mutating.Webhooks {
					got = got.Union(registered(w.Name, Mutating, w.Rules))
				}
			}
			if validating != nil {
				for _, w := range validating.Webhooks {
					got = got.Union(registered(w.Name, Validating, w.Rules))
				}
			}
			want := declarations(handlers)
			if !got.Equal(want) {
				t.Errorf("registered but not declared: %v\ndeclared but not registered: %v",
					fmtSet(got.Difference(want)), fmtSet(want.Difference(got)))
			}
		})
	}
}

func fmtSet(s sets.Set[declared]) string { return fmt.Sprint(s.UnsortedList()) }

// The rules as kube-apiserver reads them: one per resource in the order the list
// names it, the union of its operations in a fixed order; no configuration for a
// phase without handlers; the phase's path on the client config; options as given.
func TestWebhookConfigurations(t *testing.T) {
	var c calls
	handlers := []Handler{
		c.validating("pub", nil, rule(Pods, opDelete, opUpdate), rule(PodEvictions, opCreate)),
		c.validating("other", nil, rule(Pods, opCreate, opDelete)),
	}
	opts := urlOptions()
	opts.FailurePolicy = admissionregistrationv1.Fail
	mutating, validating, err := WebhookConfigurations(handlers, opts)
	if err != nil {
		t.Fatal(err)
	}
	if mutating != nil {
		t.Errorf("a mutating configuration without mutating handlers: %+v", mutating)
	}
	ns := ptr.To(admissionregistrationv1.NamespacedScope)
	wantRules := []admissionregistrationv1.RuleWithOperations{
		{Operations: []admissionregistrationv1.OperationType{opCreate, opUpdate, opDelete},
			Rule: admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}, Scope: ns}},
		{Operations: []admissionregistrationv1.OperationType{opCreate},
			Rule: admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods/eviction"}, Scope: ns}},
	}
	w := validating.Webhooks[0]
	if diff := cmp.Diff(wantRules, w.Rules); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	if validating.Name != ConfigurationName || validating.Kind != "ValidatingWebhookConfiguration" ||
		validating.APIVersion != "admissionregistration.k8s.io/v1" {
		t.Errorf("object %+v", validating.TypeMeta)
	}
	if *w.ClientConfig.URL != "https://127.0.0.1:9443"+ValidatePath || string(w.ClientConfig.CABundle) != "ca" {
		t.Errorf("client config %+v", w.ClientConfig)
	}
	if *w.FailurePolicy != admissionregistrationv1.Fail || *w.TimeoutSeconds != 3 || *w.SideEffects != admissionregistrationv1.SideEffectClassNoneOnDryRun ||
		*w.MatchPolicy != admissionregistrationv1.Equivalent || !cmp.Equal(w.NamespaceSelector, opts.NamespaceSelector) ||
		!cmp.Equal(w.ObjectSelector, opts.ObjectSelector) {
		t.Errorf("webhook %+v", w)
	}

	// kruise-apiserver's chain: one mutating webhook for pods, one validating webhook
	// for deletions, each with its own path and scope.
	service := DefaultWebhookOptions()
	service.ClientConfig.Service = &admissionregistrationv1.ServiceReference{Namespace: "kruise-system", Name: "kruise-apiserver", Port: ptr.To[int32](443)}
	mutating, validating, err = WebhookConfigurations(EveryHandler(), service)
	if err != nil {
		t.Fatal(err)
	}
	// Found by name: validating pod handlers (disruption budgets) add a webhook of
	// their own before it.
	i := slices.IndexFunc(validating.Webhooks, func(w admissionregistrationv1.ValidatingWebhook) bool {
		return w.Name == "deletion.validate.kruise-native.io"
	})
	if i < 0 {
		t.Fatalf("no deletion webhook in %+v", validating.Webhooks)
	}
	d := validating.Webhooks[i]
	if *d.ClientConfig.Service.Path != ValidateDeletionPath || d.Name != "deletion.validate.kruise-native.io" ||
		*d.FailurePolicy != admissionregistrationv1.Ignore || *d.TimeoutSeconds != 5 ||
		!cmp.Equal(d.ObjectSelector, service.Deletion.ObjectSelector) || !cmp.Equal(d.NamespaceSelector, service.Deletion.NamespaceSelector) {
		t.Errorf("deletion webhook %+v", d)
	}
	// the pod webhook's validating entry: the PodUnavailableBudget guard
	p := slices.IndexFunc(validating.Webhooks, func(w admissionregistrationv1.ValidatingWebhook) bool {
		return w.Name == "pods.validate.kruise-native.io"
	})
	if p < 0 {
		t.Fatalf("no pod validating webhook in %+v", validating.Webhooks)
	}
	wantBudgetRules := []admissionregistrationv1.RuleWithOperations{
		{Operations: []admissionregistrationv1.OperationType{opUpdate, opDelete},
			Rule: admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}, Scope: ns}},
		{Operations: []admissionregistrationv1.OperationType{opCreate},
			Rule: admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods/eviction"}, Scope: ns}},
		{Operations: []admissionregistrationv1.OperationType{opUpdate},
			Rule: admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods/resize"}, Scope: ns}},
	}
	if diff := cmp.Diff(wantBudgetRules, validating.Webhooks[p].Rules); diff != "" {
		t.Errorf("budget guard rules (-want +got):\n%s", diff)
	}
	if *validating.Webhooks[p].SideEffects != admissionregistrationv1.SideEffectClassNoneOnDryRun ||
		*validating.Webhooks[i].SideEffects != admissionregistrationv1.SideEffectClassNone {
		t.Errorf("sideEffects: pods %s, deletion %s", *validating.Webhooks[p].SideEffects, *validating.Webhooks[i].SideEffects)
	}
	m := mutating.Webhooks[0]
	if *m.ClientConfig.Service.Path != MutatePath || *m.ReinvocationPolicy != admissionregistrationv1.NeverReinvocationPolicy ||
		*m.FailurePolicy != admissionregistrationv1.Ignore || m.Name != "pods.mutate.kruise-native.io" {
		t.Errorf("mutating webhook %+v", m)
	}
	if service.ClientConfig.Service.Path != nil {
		t.Error("the caller's client config was changed")
	}
}

func TestWebhookConfigurationsRejects(t *testing.T) {
	var c calls
	handlers := []Handler{c.mutating("m", nil, rule(Pods, opCreate))}
	for name, change := range map[string]func(*WebhookOptions){
		"no client":       func(o *WebhookOptions) { o.ClientConfig.URL = nil },
		"URL and Service": func(o *WebhookOptions) { o.ClientConfig.Service = &admissionregistrationv1.ServiceReference{Name: "s"} },
		"URL with a path": func(o *WebhookOptions) { o.ClientConfig.URL = ptr.To("https://127.0.0.1:9443/admission") },
		"http URL":        func(o *WebhookOptions) { o.ClientConfig.URL = ptr.To("http://127.0.0.1:9443") },
		"Service with path": func(o *WebhookOptions) {
			o.ClientConfig.URL = nil
			o.ClientConfig.Service = &admissionregistrationv1.ServiceReference{Name: "s", Path: ptr.To("/x")}
		},
	} {
		opts := urlOptions()
		change(&opts)
		if _, _, err := WebhookConfigurations(handlers, opts); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, _, err := WebhookConfigurations([]Handler{c.mutating("m", nil, rule(Pods, opDelete))}, urlOptions()); err == nil {
		t.Error("an invalid handler list: accepted")
	}
	placeholder := urlOptions()
	placeholder.ClientConfig.URL = ptr.To("https://127.0.0.1:${KRUISE_APISERVER_PORT}")
	if m, _, err := WebhookConfigurations(handlers, placeholder); err != nil ||
		*m.Webhooks[0].ClientConfig.URL != "https://127.0.0.1:${KRUISE_APISERVER_PORT}"+MutatePath {
		t.Errorf("a placeholder port: %v", err)
	}
}

func inWebhook(w Webhook, h Handler) Handler {
	h.Webhook = w
	return h
}

// Handlers cannot cross webhooks: the pod webhook serves pods only, and only the pod
// webhook mutates.
func TestHandlersStayInTheirWebhook(t *testing.T) {
	var c calls
	for name, h := range map[string]Handler{
		"pod webhook on deployments": c.validating("x", nil, rule(Deployments, opDelete)),
		"mutating deletion handler":  inWebhook(DeletionWebhook, c.mutating("x", nil, rule(Pods, opCreate))),
		"unknown webhook":            inWebhook("other", c.validating("x", nil, rule(Pods, opDelete))),
	} {
		if _, err := NewServer([]Handler{h}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A validating pod handler and the deletion handler share the validating
// configuration as two webhooks, each with its own path and scope, so a pod request
// never reaches the deletion path nor a labelled Namespace delete the pod path.
func TestWebhooksHaveTheirOwnScope(t *testing.T) {
	var c calls
	handlers := []Handler{
		c.validating("pub", nil, rule(Pods, opDelete)),
		inWebhook(DeletionWebhook, c.validating("protect", nil, rule(Namespaces, opDelete))),
	}
	opts := urlOptions()
	_, validating, err := WebhookConfigurations(handlers, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(validating.Webhooks) != 2 {
		t.Fatalf("%d webhooks, want two", len(validating.Webhooks))
	}
	for i, want := range []struct {
		name, path string
		scope      Scope
	}{
		{"pods.validate.kruise-native.io", ValidatePath, opts.Scope},
		{"deletion.validate.kruise-native.io", ValidateDeletionPath, opts.Deletion},
	} {
		w := validating.Webhooks[i]
		if w.Name != want.name || *w.ClientConfig.URL != "https://127.0.0.1:9443"+want.path ||
			*w.FailurePolicy != want.scope.FailurePolicy || *w.TimeoutSeconds != want.scope.TimeoutSeconds ||
			!cmp.Equal(w.NamespaceSelector, want.scope.NamespaceSelector) || !cmp.Equal(w.ObjectSelector, want.scope.ObjectSelector) {
			t.Errorf("webhook %d: %+v, want %s at %s with %+v", i, w, want.name, want.path, want.scope)
		}
	}
	// The deletion scope only ever sends labelled objects, never the system namespaces.
	sel := opts.Deletion.ObjectSelector.MatchExpressions
	if len(sel) != 1 || sel[0].Key != "policy.kruise.io/delete-protection" || sel[0].Operator != "In" {
		t.Errorf("deletion objectSelector %+v", opts.Deletion.ObjectSelector)
	}
	ns := opts.Deletion.NamespaceSelector.MatchExpressions
	if len(ns) != 1 || !slices.Contains(ns[0].Values, "kube-system") || !slices.Contains(ns[0].Values, "kruise-system") ||
		ns[0].Operator != "NotIn" {
		t.Errorf("deletion namespaceSelector %+v", opts.Deletion.NamespaceSelector)
	}
	server := mustServer(t, handlers...)
	paths := []string{}
	for p := range server.Paths() {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	if !cmp.Equal(paths, []string{ValidateDeletionPath, ValidatePath}) {
		t.Errorf("served paths %v", paths)
	}
}
