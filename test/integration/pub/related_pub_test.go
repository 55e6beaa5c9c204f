package pub

import (
	"fmt"
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The pods a budget guards say so as OpenKruise's pods do: kruise.io/related-pub names
// the budget, on the example's pods and on a pod created later (the CloneSet scaled up).
func TestGuardedPodsNameTheirBudget(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	applyExample(t, ns)
	waitRelated := func(want int) {
		t.Helper()
		framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
			pods := livePods(t, ns)
			marked := 0
			for _, p := range pods {
				if p.Annotations["kruise.io/related-pub"] == budgetName {
					marked++
				}
			}
			if marked == want && len(pods) == want {
				return true, nil
			}
			return false, fmt.Errorf("%d of %d pods annotated kruise.io/related-pub=%s, want %d", marked, len(pods), budgetName, want)
		})
	}
	waitRelated(5)
	if _, stderr, err := c.Kubectl(t, "scale", "clone", "-n", ns, cloneSetName, "--replicas=6"); err != nil {
		t.Fatalf("kubectl scale: %v: %s", err, stderr)
	}
	waitRelated(6)
}
