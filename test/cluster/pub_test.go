package cluster

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// testPodUnavailableBudget: podunavailablebudget.yaml — 5 pods, maxUnavailable 1. Two
// evictions at once: the first goes through, the second is refused with 429 by the
// budget guard (the validating Pod webhook, through the Service); then the same for two
// deletions.
func (s *suite) testPodUnavailableBudget(t *testing.T) {
	ctx := context.Background()
	s.push(t, "nginx:alpine")
	s.apply(t, example(t, "podunavailablebudget.yaml"))
	defer func() {
		must(t, ignoreNotFound(s.kruise.PolicyV1alpha1().PodUnavailableBudgets("default").Delete(ctx, "web-server-pub", metav1.DeleteOptions{})))
		s.deleteCloneSet(t, "pub-demo", "app=pub-demo")
	}()
	s.waitCloneSet(t, "pub-demo", 2*time.Minute, "5 ready", readyCount(5))
	waitAllowed := func() {
		must(t, harness.WaitFor(ctx, 2*time.Minute, 500*time.Millisecond, "budget: 5 available, 1 allowed", func(ctx context.Context) error {
			pub, err := s.kruise.PolicyV1alpha1().PodUnavailableBudgets("default").Get(ctx, "web-server-pub", metav1.GetOptions{})
			if err != nil {
				return err
			}
			st := pub.Status
			if st.UnavailableAllowed != 1 || st.CurrentAvailable != 5 || st.TotalReplicas != 5 {
				return fmt.Errorf("allowed %d current %d desired %d total %d", st.UnavailableAllowed, st.CurrentAvailable, st.DesiredAvailable, st.TotalReplicas)
			}
			return nil
		}))
	}
	waitAllowed()
	t.Logf("kubectl get pub:\n%s", s.kubectl(t, "get", "pub"))
	two := func() []string {
		pods, err := podsOf(ctx, s.c.Client, "default", "app=pub-demo")
		must(t, err)
		var names []string
		for n, p := range pods {
			if p.DeletionTimestamp == nil {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		return names[:2]
	}

	victims := two()
	var results []error
	for _, n := range victims {
		results = append(results, s.c.Client.CoreV1().Pods("default").EvictV1(ctx, &policyv1.Eviction{
			ObjectMeta: metav1.ObjectMeta{Name: n, Namespace: "default"},
		}))
	}
	if results[0] != nil {
		t.Fatalf("first eviction (%s) refused: %v", victims[0], results[0])
	}
	if !apierrors.IsTooManyRequests(results[1]) {
		t.Fatalf("second eviction (%s): %v; want 429 from the budget", victims[1], results[1])
	}
	t.Logf("eviction of %s allowed; eviction of %s refused: %v", victims[0], victims[1], results[1])

	s.waitCloneSet(t, "pub-demo", 2*time.Minute, "5 ready again", readyCount(5))
	waitAllowed()
	victims = two()
	out, err := s.run(ctx, "", "kubectl", "delete", "pod", victims[0], victims[1], "--wait=false")
	if err == nil || !strings.Contains(out, "deleted") || !strings.Contains(out, "429") && !strings.Contains(strings.ToLower(out), "pub") {
		t.Fatalf("kubectl delete of two pods: err %v, output:\n%s\nwant one deleted and one refused by the budget", err, out)
	}
	t.Logf("kubectl delete pod %s %s:\n%s", victims[0], victims[1], strings.TrimSpace(out))
}
