package pub

import (
	"context"
	"testing"
	"time"

	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
	policyv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const validatingWebhook = "pods.validate.kruise-native.io"

// kube-apiserver calls the validating Pod webhook only in namespaces where a budget (or
// a WorkloadSpread) may act: a pod delete elsewhere is skipped before the call. A
// budget's create widens the registration before it returns, so the disruptions that
// follow are guarded; deleting the budget narrows it again.
func TestValidatingCallScope(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	key := "podunavailablebudget/" + ns
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		clauses, narrowed := c.PodWebhookCallScope(t, podwebhook.Validating)
		_, found := clauses[key]
		return narrowed && !found, nil
	})

	if _, err := c.KubectlStdin(t, `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: `+cloneSetName+`
spec:
  replicas: 2
  selector:
    matchLabels:
      app: pub-demo
  template:
    metadata:
      labels:
        app: pub-demo
    spec:
      containers:
      - name: nginx
        image: nginx:alpine
`, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	var pods []string
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		pods = pods[:0]
		for _, p := range livePods(t, ns) {
			if isReady(&p) {
				pods = append(pods, p.Name)
			}
		}
		return len(pods) == 2, nil
	})

	before := c.SkippedWebhookCalls(t, validatingWebhook, "DELETE")
	if err := c.Client.CoreV1().Pods(ns).Delete(ctx, pods[0], metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
		t.Fatal(err)
	}
	if after := c.SkippedWebhookCalls(t, validatingWebhook, "DELETE"); after <= before {
		t.Errorf("a pod delete without budgets: kube-apiserver's skipped deletes %v -> %v, want the call skipped", before, after)
	}

	zero := intstr.FromInt32(0)
	budgets := kruise(t).PolicyV1alpha1().PodUnavailableBudgets(ns)
	if _, err := budgets.Create(ctx, &policyv1alpha1.PodUnavailableBudget{
		ObjectMeta: metav1.ObjectMeta{Name: budgetName},
		Spec: policyv1alpha1.PodUnavailableBudgetSpec{MaxUnavailable: &zero,
			TargetReference: &policyv1alpha1.TargetReference{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: cloneSetName}},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Read at once, no polling: the create returned only once the clause was written.
	if clauses, narrowed := c.PodWebhookCallScope(t, podwebhook.Validating); !narrowed || clauses[key] == "" {
		t.Errorf("right after the budget's create: narrowed %t, clauses %v; want its namespace's clause", narrowed, clauses)
	}
	waitBudget(t, ns, time.Minute, func(s policyv1alpha1.PodUnavailableBudgetStatus) bool {
		return s.TotalReplicas == 2 && s.UnavailableAllowed == 0
	})
	err := c.Client.CoreV1().Pods(ns).EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: pods[0], Namespace: ns}})
	budgetRefusal(t, "the eviction", err)

	if err := budgets.Delete(ctx, budgetName, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	// The caches are trusted to remove a clause 30 s after the last widening.
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		clauses, narrowed := c.PodWebhookCallScope(t, podwebhook.Validating)
		_, found := clauses[key]
		return narrowed && !found, nil
	})
}
