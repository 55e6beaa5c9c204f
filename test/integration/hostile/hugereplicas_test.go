package hostile

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const (
	// rssLimit is what kruise-controller may use while the hostile workloads exist
	// (it idles at 40-60 MiB); the old code grew by ~150 MB/s until the node ran out.
	rssLimit = 150 << 20
	// window is how long the workloads are watched; probeAt is when the probe CloneSet
	// is created in another namespace, and probeWithin how long it may take to get its
	// pods.
	window      = 5 * time.Minute
	probeAt     = 15 * time.Second
	probeWithin = 30 * time.Second
	// quotaPods is the namespace's pod quota: every creation past it is refused (403).
	quotaPods = 20
	// maxRefused bounds the creations the quota refuses over the window: a controller
	// that backs off (slow start stops at the first failure, the queue's backoff grows)
	// makes a few per workload; one that spins makes its QPS's worth, thousands.
	maxRefused = 400
)

// hostileWorkloads are a CloneSet, an Advanced StatefulSet (Parallel), a UnitedDeployment
// of CloneSets over the three zones, each of 2147483647 replicas, and a BroadcastJob of
// parallelism 2147483647: everything kruise-controller creates in proportion to a
// number the user wrote.
const hostileWorkloads = `
apiVersion: apps.kruise.io/v1beta1
kind: CloneSet
metadata: {name: huge-cs}
spec:
  replicas: 2147483647
  selector: {matchLabels: {app: huge-cs}}
  template:
    metadata: {labels: {app: huge-cs}}
    spec:
      containers: [{name: c, image: nginx:alpine}]
---
apiVersion: apps.kruise.io/v1beta1
kind: StatefulSet
metadata: {name: huge-sts}
spec:
  replicas: 2147483647
  podManagementPolicy: Parallel
  serviceName: huge-sts
  selector: {matchLabels: {app: huge-sts}}
  template:
    metadata: {labels: {app: huge-sts}}
    spec:
      containers: [{name: c, image: nginx:alpine}]
---
apiVersion: apps.kruise.io/v1alpha1
kind: UnitedDeployment
metadata: {name: huge-ud}
spec:
  replicas: 2147483647
  selector: {matchLabels: {app: huge-ud}}
  template:
    cloneSetTemplate:
      metadata: {labels: {app: huge-ud}}
      spec:
        selector: {matchLabels: {app: huge-ud}}
        template:
          metadata: {labels: {app: huge-ud}}
          spec:
            containers: [{name: c, image: nginx:alpine}]
  topology:
    subsets:
    - name: a
      nodeSelectorTerm: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [a]}]}
    - name: b
      nodeSelectorTerm: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [b]}]}
    - name: c
      nodeSelectorTerm: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [c]}]}
---
apiVersion: apps.kruise.io/v1alpha1
kind: BroadcastJob
metadata: {name: huge-bcj}
spec:
  parallelism: 2147483647
  completionPolicy: {type: Never}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
`

const probe = `
apiVersion: apps.kruise.io/v1beta1
kind: CloneSet
metadata: {name: probe}
spec:
  replicas: 3
  selector: {matchLabels: {app: probe}}
  template:
    metadata: {labels: {app: probe}}
    spec:
      containers: [{name: c, image: nginx:alpine}]
`

// A CloneSet, an Advanced StatefulSet, a UnitedDeployment of 2147483647 replicas each
// and a BroadcastJob of parallelism 2147483647, created at once in a namespace whose
// quota allows 20 pods: kruise-controller's resident memory stays under 150 MiB for
// five minutes, it keeps serving others (a 3-pod CloneSet elsewhere gets its pods
// within 30 s), and the refused creations stay few (it backs off instead of spinning).
// Issue 32: the controller built every pod of the CloneSet before creating any, grew
// by ~150 MB/s to 21 GiB and took the machine down. The test kills kruise-controller
// the moment its memory crosses the limit, so a regression fails fast and harms nothing.
func TestHugeReplicaCountsStayBounded(t *testing.T) {
	c := framework.Get(t)
	c.WaitKruiseControllerReady(t, time.Minute)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	quota := &corev1.ResourceQuota{
		ObjectMeta: metav1.ObjectMeta{Name: "pods"},
		Spec:       corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse(fmt.Sprint(quotaPods))}},
	}
	if _, err := c.Client.CoreV1().ResourceQuotas(ns).Create(ctx, quota, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The quota admits pods only once kube-controller-manager has counted its usage.
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		q, err := c.Client.CoreV1().ResourceQuotas(ns).Get(ctx, quota.Name, metav1.GetOptions{})
		return err == nil && q.Status.Used != nil, err
	})
	refusedBefore := refusedCreates(t, c)
	if out, err := c.KubectlStdin(t, hostileWorkloads, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v\n%s", err, out)
	}
	start := time.Now()
	other := c.CreateNamespace(t)

	var peak int64
	var probeCreated, probeServed, probeLooked time.Time
	// Memory is read every 20 ms: the old code grew by gigabytes a second once it
	// listed the ordinals of a huge Advanced StatefulSet, and is killed within a tick.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for ; time.Since(start) < window; <-tick.C {
		mem, err := c.Stack.ComponentMemory("kruise-controller")
		if err != nil {
			t.Fatalf("after %s: %v", time.Since(start).Round(time.Second), err)
		}
		peak = max(peak, mem.RSS, mem.Peak)
		if peak > rssLimit {
			// Kill it before it takes the machine with it.
			c.KillComponent(t, "kruise-controller")
			t.Fatalf("kruise-controller used %d MiB %s after the workloads were created, more than the %d MiB allowed (killed)",
				peak>>20, time.Since(start).Round(100*time.Millisecond), rssLimit>>20)
		}
		switch {
		case probeCreated.IsZero() && time.Since(start) >= probeAt:
			if out, err := c.KubectlStdin(t, probe, "apply", "-n", other, "-f", "-"); err != nil {
				t.Fatalf("kubectl apply: %v\n%s", err, out)
			}
			probeCreated = time.Now()
		case !probeCreated.IsZero() && probeServed.IsZero() && time.Since(probeLooked) >= 250*time.Millisecond:
			probeLooked = time.Now()
			if n := runningPods(t, c, other, "app=probe"); n >= 3 {
				probeServed = time.Now()
				t.Logf("the probe CloneSet got its 3 pods in %s", probeServed.Sub(probeCreated).Round(100*time.Millisecond))
			} else if time.Since(probeCreated) > probeWithin {
				t.Fatalf("the probe CloneSet has %d of its 3 pods %s after it was created", n, probeWithin)
			}
		}
	}
	t.Logf("kruise-controller's peak resident memory over %s: %d MiB (limit %d MiB)", window, peak>>20, rssLimit>>20)

	// The quota was met, and every creation past it refused, few times.
	q, err := c.Client.CoreV1().ResourceQuotas(ns).Get(ctx, quota.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// kube-apiserver's quota admission can let one pod past the quota under this churn:
	// kube-controller-manager's recount, from a pod cache a create behind, overwrites the
	// usage the admission had just charged. That is kube's, not ours; the quota being
	// reached is what this test needs.
	switch used := q.Status.Used[corev1.ResourcePods]; {
	case used.Value() < quotaPods:
		t.Errorf("the namespace uses %s pods, want its quota's %d", used.String(), quotaPods)
	case used.Value() > quotaPods:
		t.Logf("the namespace uses %s pods, %d past its quota (kube's quota recount race)", used.String(), used.Value()-quotaPods)
	}
	refused := refusedCreates(t, c) - refusedBefore
	t.Logf("creations refused over %s: %.0f", window, refused)
	if refused > maxRefused {
		t.Errorf("%.0f creations refused over %s, more than %d: kruise-controller does not back off", refused, window, maxRefused)
	}
	if refused == 0 {
		t.Errorf("no creation was refused: the quota was never reached")
	}
}

// refusedCreates is how many of kruise-controller's creations were refused with 403.
func refusedCreates(t *testing.T, c *framework.Cluster) float64 {
	t.Helper()
	return c.MetricSum(t, "kruise-controller", "rest_client_requests_total", `code="403"`, `method="POST"`)
}

// runningPods counts the pods of selector in ns that run and are not being deleted.
func runningPods(t *testing.T, c *framework.Cluster, ns, selector string) int {
	t.Helper()
	list, err := c.Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range list.Items {
		if p.DeletionTimestamp == nil && p.Status.Phase == corev1.PodRunning {
			n++
		}
	}
	return n
}
