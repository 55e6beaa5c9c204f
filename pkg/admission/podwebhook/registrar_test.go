package podwebhook

import (
	"context"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"
)

// The Registrar creates both configurations owned by the ClusterRole it is given, and
// applying them again (a restart, another replica) keeps the call scope the keeper
// patched in; changed options replace what the Registrar applied.
func TestRegistrarKeepsTheCallScope(t *testing.T) {
	ctx := context.Background()
	client := fake.NewClientset(&rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "kruise-apiserver", UID: "role-uid"}})
	opts := DefaultWebhookOptions()
	opts.ClientConfig.Service = &admissionregistrationv1.ServiceReference{Namespace: "kruise-system", Name: "kruise-apiserver", Port: ptr.To[int32](443)}
	opts.ClientConfig.CABundle = []byte("ca")
	r, err := NewRegistrar(EveryHandler(), opts, "kruise-apiserver", client)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check(nil); err == nil {
		t.Error("ready before registering")
	}
	r.Run(ctx)
	if err := r.Check(nil); err != nil {
		t.Errorf("not ready after registering: %v", err)
	}
	api := client.AdmissionregistrationV1()
	m, err := api.MutatingWebhookConfigurations().Get(ctx, ConfigurationName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := api.ValidatingWebhookConfigurations().Get(ctx, ConfigurationName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, owners := range [][]metav1.OwnerReference{m.OwnerReferences, v.OwnerReferences} {
		if len(owners) != 1 || owners[0].Kind != "ClusterRole" || owners[0].Name != "kruise-apiserver" || owners[0].UID != "role-uid" {
			t.Errorf("owners %+v, want the ClusterRole kruise-apiserver", owners)
		}
	}
	if len(m.Webhooks) != 1 || len(m.Webhooks[0].MatchConditions) != 0 || string(m.Webhooks[0].ClientConfig.CABundle) != "ca" {
		t.Fatalf("mutating configuration %+v", m.Webhooks)
	}
	if len(v.Webhooks) != 2 {
		t.Fatalf("validating configuration has %d webhooks, want the Pod webhook and deletion protection", len(v.Webhooks))
	}

	// The keeper narrows the mutating entry, as it does, by a JSON patch.
	view, _ := viewOf(m, nil)
	scope := callScope{Narrowed: true, Clauses: CallClauses{"sidecarset/s": "true"}}
	patch, err := callScopePatch(view, 0, scope)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.MutatingWebhookConfigurations().Patch(ctx, ConfigurationName, types.JSONPatchType, patch,
		metav1.PatchOptions{FieldManager: CallScopeFieldManager}); err != nil {
		t.Fatal(err)
	}

	// A restart with another failure policy.
	opts.FailurePolicy = admissionregistrationv1.Fail
	again, err := NewRegistrar(EveryHandler(), opts, "kruise-apiserver", client)
	if err != nil {
		t.Fatal(err)
	}
	again.Run(ctx)
	m, err = api.MutatingWebhookConfigurations().Get(ctx, ConfigurationName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := readCallScope(mustView(m), 0); !got.equal(scope) {
		t.Errorf("call scope after the second apply %+v, want the keeper's %+v", got, scope)
	}
	if p := m.Webhooks[0].FailurePolicy; p == nil || *p != admissionregistrationv1.Fail {
		t.Errorf("failurePolicy %v, want Fail", p)
	}
}

// Without its owner the Registrar does not register: an unowned registration would
// outlive an uninstall.
func TestRegistrarNeedsItsOwner(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	client := fake.NewClientset()
	opts := DefaultWebhookOptions()
	opts.ClientConfig.URL = ptr.To("https://127.0.0.1:9443")
	r, err := NewRegistrar(EveryHandler(), opts, "kruise-apiserver", client)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.apply(ctx); err == nil {
		t.Fatal("applied without the owner ClusterRole")
	}
	cancel()
	r.Run(ctx) // returns at once: ctx has ended
	if _, err := client.AdmissionregistrationV1().MutatingWebhookConfigurations().Get(context.Background(), ConfigurationName, metav1.GetOptions{}); err == nil {
		t.Error("registered without the owner ClusterRole")
	}
}

func mustView(c *admissionregistrationv1.MutatingWebhookConfiguration) registrationView {
	v, _ := viewOf(c, nil)
	return v
}
