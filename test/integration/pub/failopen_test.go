package pub

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	policyv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// failOpenCount sums kube-apiserver's count of webhook calls that failed open for
// the budget guard's webhook.
func failOpenCount(t *testing.T) float64 {
	return framework.Get(t).KubeAPIServerMetricSum(t, "apiserver_admission_webhook_fail_open_count", `name="pods.validate.kruise-native.io"`)
}

// The documented failure behaviour (failurePolicy Ignore, the local stack's default):
// while kruise-apiserver is down a budget with no slot left does not stop a delete,
// and kube-apiserver counts the miss in apiserver_admission_webhook_fail_open_count.
// Once it is back the budget counts the pods as they are and refuses again.
func TestFailOpenWhileKruiseAPIServerDown(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	applyExample(t, ns)
	waitBudget(t, ns, 2*time.Minute, func(s policyv1alpha1.PodUnavailableBudgetStatus) bool {
		return s.CurrentAvailable == 5 && s.UnavailableAllowed == 1
	})
	if _, err := kruise(t).PolicyV1alpha1().PodUnavailableBudgets(ns).Patch(ctx, budgetName, types.MergePatchType,
		[]byte(`{"spec":{"maxUnavailable":0}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitBudget(t, ns, time.Minute, func(s policyv1alpha1.PodUnavailableBudgetStatus) bool {
		return s.UnavailableAllowed == 0 && s.DesiredAvailable == 5
	})
	pods := livePods(t, ns)
	if err := c.Client.CoreV1().Pods(ns).Delete(ctx, pods[0].Name, metav1.DeleteOptions{}); err == nil {
		t.Fatalf("a delete with no slot passed while kruise-apiserver runs")
	}

	before := failOpenCount(t)
	c.StopKruiseAPIServer(t)
	restarted := false
	t.Cleanup(func() {
		if !restarted {
			c.StartKruiseAPIServer(t)
		}
	})
	if err := c.Client.CoreV1().Pods(ns).Delete(ctx, pods[0].Name, metav1.DeleteOptions{}); err != nil {
		t.Errorf("with kruise-apiserver down (failurePolicy Ignore) the delete was refused: %v", err)
	}
	if after := failOpenCount(t); after <= before {
		t.Errorf("apiserver_admission_webhook_fail_open_count for the guard %v -> %v: the miss is not visible", before, after)
	}

	c.StartKruiseAPIServer(t)
	restarted = true
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		err := c.Client.CoreV1().Pods(ns).Delete(ctx, livePods(t, ns)[1].Name, metav1.DeleteOptions{})
		return err != nil && strings.Contains(err.Error(), budgetName), nil
	})
}
