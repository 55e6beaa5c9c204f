package pub

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const (
	budgetName   = "web-server-pub"
	cloneSetName = "pub-demo"
)

func kruise(t *testing.T) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// applyExample applies examples/podunavailablebudget.yaml into ns, unchanged.
func applyExample(t *testing.T, ns string) {
	t.Helper()
	c := framework.Get(t)
	data, err := os.ReadFile(filepath.Join(c.Root, "examples", "podunavailablebudget.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.KubectlStdin(t, string(data), "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
}

// waitBudget waits until the budget's controller has observed its spec and its status
// satisfies cond.
func waitBudget(t *testing.T, ns string, timeout time.Duration, cond func(s policyv1alpha1.PodUnavailableBudgetStatus) bool) *policyv1alpha1.PodUnavailableBudget {
	t.Helper()
	var pub *policyv1alpha1.PodUnavailableBudget
	framework.WaitFor(t, timeout, func() (bool, error) {
		var err error
		pub, err = kruise(t).PolicyV1alpha1().PodUnavailableBudgets(ns).Get(context.Background(), budgetName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return pub.Status.ObservedGeneration == pub.Generation && cond(pub.Status), nil
	})
	return pub
}

// livePods lists the pods of ns that are not being deleted.
func livePods(t *testing.T, ns string) []corev1.Pod {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []corev1.Pod
	for _, p := range list.Items {
		if p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

func isReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// eventMessages returns the messages of the events recorded on an object, by reason.
func eventMessages(t *testing.T, ns, name string) map[string][]string {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().Events(ns).List(context.Background(),
		metav1.ListOptions{FieldSelector: "involvedObject.name=" + name})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, e := range list.Items {
		out[e.Reason] = append(out[e.Reason], e.Message)
	}
	return out
}
