package pub

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	policyv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// budgetRefusal asserts err is the webhook's 429 naming the budget.
func budgetRefusal(t *testing.T, what string, err error) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s passed; want 429 from the budget", what)
	case !apierrors.IsTooManyRequests(err):
		t.Errorf("%s: %v; want 429 TooManyRequests", what, err)
	case !strings.Contains(err.Error(), budgetName):
		t.Errorf("%s: %q does not name the budget %s", what, err, budgetName)
	}
}

// podunavailablebudget.yaml: with 5 ready pods and maxUnavailable 1, of two
// concurrent deletes exactly one passes and the other gets 429 naming the budget;
// with no slot left an eviction gets 429 too; a pod annotated
// pub.kruise.io/no-protect=true is deleted anyway; `kubectl get pub` prints
// OpenKruise's columns.
func TestExampleDeletesAndEvictions(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	applyExample(t, ns)
	waitBudget(t, ns, 2*time.Minute, func(s policyv1alpha1.PodUnavailableBudgetStatus) bool {
		return s.TotalReplicas == 5 && s.CurrentAvailable == 5 && s.DesiredAvailable == 4 && s.UnavailableAllowed == 1
	})

	out, stderr, err := c.Kubectl(t, "get", "pub", "-n", ns)
	if err != nil {
		t.Fatalf("kubectl get pub: %v: %s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME ALLOWED CURRENT DESIRED TOTAL AGE" ||
		!strings.HasPrefix(strings.Join(strings.Fields(lines[1]), " "), budgetName+" 1 5 4 5 ") {
		t.Errorf("kubectl get pub:\n%s", out)
	}

	// two concurrent deletes, one slot
	pods := livePods(t, ns)
	if len(pods) != 5 {
		t.Fatalf("%d pods, want 5", len(pods))
	}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.Client.CoreV1().Pods(ns).Delete(ctx, pods[i].Name, metav1.DeleteOptions{})
		}()
	}
	wg.Wait()
	switch {
	case errs[0] == nil && errs[1] == nil:
		t.Fatalf("both deletes passed with one slot left")
	case errs[0] != nil && errs[1] != nil:
		t.Fatalf("both deletes refused: %v; %v", errs[0], errs[1])
	case errs[0] != nil:
		budgetRefusal(t, "the second delete", errs[0])
	default:
		budgetRefusal(t, "the second delete", errs[1])
	}

	// no slot at all: an eviction is refused with 429
	if _, err := kruise(t).PolicyV1alpha1().PodUnavailableBudgets(ns).Patch(ctx, budgetName, types.MergePatchType,
		[]byte(`{"spec":{"maxUnavailable":0}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitBudget(t, ns, time.Minute, func(s policyv1alpha1.PodUnavailableBudgetStatus) bool {
		return s.DesiredAvailable == 5 && s.CurrentAvailable == 5 && s.UnavailableAllowed == 0
	})
	// a ready pod: disrupting an unready one costs the budget nothing and is let through
	var victim corev1.Pod
	for _, p := range livePods(t, ns) {
		if isReady(&p) {
			victim = p
			break
		}
	}
	err = c.Client.CoreV1().Pods(ns).EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: victim.Name, Namespace: ns}})
	budgetRefusal(t, "the eviction", err)
	_, stderr, err = c.Kubectl(t, "delete", "pod", "-n", ns, victim.Name, "--wait=false")
	if err == nil || !strings.Contains(stderr, budgetName) {
		t.Errorf("kubectl delete with no slot: err %v, stderr %q; want a refusal naming %s", err, stderr, budgetName)
	}
	if p, err := c.Client.CoreV1().Pods(ns).Get(ctx, victim.Name, metav1.GetOptions{}); err != nil || p.DeletionTimestamp != nil {
		t.Errorf("the refused pod was deleted: %v", err)
	}

	// pub.kruise.io/no-protect=true: deletable even with no slot (annotating is no disruption)
	if _, _, err := c.Kubectl(t, "annotate", "pod", "-n", ns, victim.Name, "pub.kruise.io/no-protect=true"); err != nil {
		t.Fatalf("annotating the pod was refused: %v", err)
	}
	if err := c.Client.CoreV1().Pods(ns).Delete(ctx, victim.Name, metav1.DeleteOptions{}); err != nil {
		t.Errorf("deleting a no-protect pod: %v", err)
	}

	// Deleting the target lets the garbage collector delete its pods: a budget whose
	// target is gone protects nothing.
	if _, stderr, err := c.Kubectl(t, "delete", "clone", "-n", ns, cloneSetName, "--wait=false"); err != nil {
		t.Fatalf("kubectl delete clone: %v: %s", err, stderr)
	}
	waitBudget(t, ns, time.Minute, func(s policyv1alpha1.PodUnavailableBudgetStatus) bool { return s.TotalReplicas == 0 })
	// the garbage collector retries the deletes refused before the budget saw its
	// target go with its exponential backoff: allow it some
	framework.WaitFor(t, 3*time.Minute, func() (bool, error) { return len(livePods(t, ns)) == 0, nil })
}

// Bad input is refused with the field at fault, and nothing is stored.
func TestBadInputRefused(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	for _, tc := range []struct {
		name, spec, field string
	}{
		{"both", "targetRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: web}\n  maxUnavailable: 1\n  minAvailable: 2", "spec.minAvailable"},
		{"neither", "targetRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: web}", "spec.maxUnavailable"},
		{"selector-and-target", "selector: {matchLabels: {app: web}}\n  targetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxUnavailable: 1", "spec.targetRef"},
		{"no-pods", "maxUnavailable: 1", "spec.selector"},
		{"bad-percent", "selector: {matchLabels: {app: web}}\n  maxUnavailable: 1O%", "spec.maxUnavailable"},
		{"v1beta1-unguarded-operation", "selector: {matchLabels: {app: web}}\n  maxUnavailable: 1\n  protectOperations: [RESIZE]", "spec.protectOperations[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			version := "v1alpha1"
			if strings.HasPrefix(tc.name, "v1beta1") {
				version = "v1beta1"
			}
			manifest := "apiVersion: policy.kruise.io/" + version + "\nkind: PodUnavailableBudget\nmetadata:\n  name: " + tc.name + "\nspec:\n  " + tc.spec + "\n"
			_, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-")
			if err == nil || !strings.Contains(err.Error(), "is invalid") || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("apply: %v; want 422 at %s", err, tc.field)
			}
			if _, err := kruise(t).PolicyV1beta1().PodUnavailableBudgets(ns).Get(context.Background(), tc.name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("after the refusal: %v; want NotFound", err)
			}
		})
	}
}
