package framework

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
)

// PodWebhookCallScope reads the registration of the Pod webhook of phase p: the clauses
// its match condition was built from, and whether it has one (without, kube-apiserver
// calls it for every request its rules match). It fails the test when the condition is
// not the one the recorded clauses make.
func (c *Cluster) PodWebhookCallScope(t testing.TB, p podwebhook.Phase) (podwebhook.CallClauses, bool) {
	t.Helper()
	ctx := context.Background()
	api := c.Client.AdmissionregistrationV1()
	var (
		clauses  podwebhook.CallClauses
		narrowed bool
	)
	if p == podwebhook.Mutating {
		mwc, err := api.MutatingWebhookConfigurations().Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		clauses, narrowed = podwebhook.RegisteredCallClauses(mwc, p)
	} else {
		vwc, err := api.ValidatingWebhookConfigurations().Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		clauses, narrowed = podwebhook.RegisteredCallClauses(vwc, p)
	}
	if narrowed && clauses == nil {
		t.Fatalf("the %s Pod webhook's condition was not built from the clauses recorded in %s", p, podwebhook.CallClausesAnnotation)
	}
	return clauses, narrowed
}

// SkippedWebhookCalls is kube-apiserver's count of operation requests (CREATE, DELETE)
// the match conditions of webhook hook kept from calling it.
func (c *Cluster) SkippedWebhookCalls(t testing.TB, hook, operation string) float64 {
	t.Helper()
	return c.KubeAPIServerMetricSum(t, "apiserver_admission_match_condition_exclusions_total",
		`name="`+hook+`"`, `operation="`+operation+`"`)
}
