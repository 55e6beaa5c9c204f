package framework

import (
	"context"
	"encoding/json"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
)

// PodWebhookCallScope reads the registration of the Pod webhook named hook
// (pods.mutate.kruise-native.io or pods.validate.kruise-native.io): the clauses its
// match condition was built from, and whether it has one (without, kube-apiserver calls
// it for every request its rules match). It fails the test when the condition is not
// the one the recorded clauses make.
func (c *Cluster) PodWebhookCallScope(t testing.TB, hook string) (podwebhook.CallClauses, bool) {
	t.Helper()
	ctx := context.Background()
	var (
		annotations map[string]string
		conditions  []admissionregistrationv1.MatchCondition
	)
	api := c.Client.AdmissionregistrationV1()
	if mwc, err := api.MutatingWebhookConfigurations().Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	} else {
		for _, h := range mwc.Webhooks {
			if h.Name == hook {
				annotations, conditions = mwc.Annotations, h.MatchConditions
			}
		}
	}
	if vwc, err := api.ValidatingWebhookConfigurations().Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	} else {
		for _, h := range vwc.Webhooks {
			if h.Name == hook {
				annotations, conditions = vwc.Annotations, h.MatchConditions
			}
		}
	}
	for _, mc := range conditions {
		if mc.Name != podwebhook.CallConditionName {
			continue
		}
		var clauses podwebhook.CallClauses
		if err := json.Unmarshal([]byte(annotations[podwebhook.CallClausesAnnotation]), &clauses); err != nil {
			t.Fatalf("%s: %v", podwebhook.CallClausesAnnotation, err)
		}
		if clauses.Expression() != mc.Expression {
			t.Fatalf("%s: condition %q was not built from the recorded clauses %v", hook, mc.Expression, clauses)
		}
		return clauses, true
	}
	return nil, false
}

// SkippedWebhookCalls is kube-apiserver's count of operation requests (CREATE, DELETE)
// the match conditions of webhook hook kept from calling it.
func (c *Cluster) SkippedWebhookCalls(t testing.TB, hook, operation string) float64 {
	t.Helper()
	return c.KubeAPIServerMetricSum(t, "apiserver_admission_match_condition_exclusions_total",
		`name="`+hook+`"`, `operation="`+operation+`"`)
}
