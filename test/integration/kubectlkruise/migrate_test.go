package kubectlkruise

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const migrateDeployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 4
  strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1, maxSurge: 0}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: main, image: "nginx:1.25"}]
`

// readyWatcher follows the ready pods with a label through a watch and remembers the
// fewest ready pods seen once the first count was reached.
type readyWatcher struct {
	mu     sync.Mutex
	ready  map[string]bool
	fewest int
}

func watchReady(t *testing.T, ns, selector string, want int) (*readyWatcher, func()) {
	t.Helper()
	c := framework.Get(t)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := c.Client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		t.Fatal(err)
	}
	rw := &readyWatcher{ready: map[string]bool{}, fewest: -1}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			p, ok := ev.Object.(*corev1.Pod)
			if !ok {
				continue
			}
			rw.mu.Lock()
			isReady := ev.Type != watch.Deleted && p.DeletionTimestamp == nil && podReady(p)
			if isReady {
				rw.ready[p.Name] = true
			} else {
				delete(rw.ready, p.Name)
			}
			if n := len(rw.ready); rw.fewest >= 0 && n < rw.fewest || rw.fewest < 0 && n >= want {
				rw.fewest = n
			}
			rw.mu.Unlock()
		}
	}()
	return rw, func() { cancel(); w.Stop(); <-done }
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// migrate moves the Deployment's 4 pods to a CloneSet with never more than
// maxUnavailable (1) pods unready; --dry-run changes nothing; a non-Deployment is refused.
func TestMigrateDeploymentToCloneSet(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	if _, err := c.KubectlStdin(t, migrateDeployment, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Kubectl(t, "rollout", "status", "deployment/web", "-n", ns, "--timeout=2m"); err != nil {
		t.Fatal(err)
	}

	out, _, err := kk(t, "migrate", "deployment/web", "-n", ns, "--dry-run=client")
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "migrate --dry-run", out, "cloneset.apps.kruise.io/web created (dry run)")
	mustContain(t, "migrate --dry-run", out, "would scale deployment/web to 0 and cloneset/web to 4")
	out, _, err = kk(t, "migrate", "deployment/web", "-n", ns, "--dry-run=server")
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "migrate --dry-run=server", out, "cloneset.apps.kruise.io/web created (server dry run)")
	if _, _, err := c.Kubectl(t, "get", "clonesets.apps.kruise.io/web", "-n", ns); err == nil {
		t.Fatal("migrate --dry-run created the CloneSet")
	}
	if got := jsonpath(t, ns, "deployment/web", ".spec.replicas"); got != "4" {
		t.Fatalf("migrate --dry-run scaled the Deployment to %s", got)
	}

	rw, stop := watchReady(t, ns, "app=web", 4)
	out, _, err = kk(t, "migrate", "deployment/web", "-n", ns, "--timeout=3m")
	stop()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("migrate (fewest ready pods seen: %d):\n%s", rw.fewest, out)
	mustContain(t, "migrate", out, "deployment/web migrated to cloneset.apps.kruise.io/web: 4 pods available")
	if rw.fewest < 3 {
		t.Fatalf("during the migration only %d pods were ready; maxUnavailable 1 allows no fewer than 3\n%s", rw.fewest, out)
	}
	if got := jsonpath(t, ns, "deployment/web", ".spec.replicas"); got != "0" {
		t.Fatalf("deployment replicas = %s, want 0", got)
	}
	if got := jsonpath(t, ns, "clonesets.apps.kruise.io/web", ".status.availableReplicas"); got != "4" {
		t.Fatalf("cloneset available = %s, want 4", got)
	}
	list, err := c.Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	var owners []string
	for _, p := range list.Items {
		if p.DeletionTimestamp == nil {
			owners = append(owners, fmt.Sprint(metav1.GetControllerOf(&p).Kind))
		}
	}
	if strings.Join(owners, ",") != "CloneSet,CloneSet,CloneSet,CloneSet" {
		t.Fatalf("pod owners after migrate = %v, want 4 CloneSet pods", owners)
	}

	// Wrong input: not a Deployment.
	_, stderr, err := kk(t, "migrate", "clonesets.apps.kruise.io/web", "-n", ns)
	if err == nil {
		t.Fatal("migrate of a CloneSet succeeded")
	}
	mustContain(t, "migrate cloneset stderr", stderr, `error: migrate is not supported for "clonesets.apps.kruise.io": only deployments.apps`)
}

// With maxUnavailable 0 the CloneSet surges first: every pod of the Deployment stays
// ready until a CloneSet pod has replaced it.
func TestMigrateWithSurgeOnly(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	dep := strings.Replace(migrateDeployment, "{maxUnavailable: 1, maxSurge: 0}", "{maxUnavailable: 0, maxSurge: 1}", 1)
	if _, err := c.KubectlStdin(t, dep, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Kubectl(t, "rollout", "status", "deployment/web", "-n", ns, "--timeout=2m"); err != nil {
		t.Fatal(err)
	}
	rw, stop := watchReady(t, ns, "app=web", 4)
	out, _, err := kk(t, "migrate", "deployment/web", "-n", ns, "--cloneset-name=web-cs", "--timeout=3m")
	stop()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("migrate (fewest ready pods seen: %d):\n%s", rw.fewest, out)
	mustContain(t, "migrate", out, "deployment/web migrated to cloneset.apps.kruise.io/web-cs: 4 pods available")
	if rw.fewest < 4 {
		t.Fatalf("during the migration only %d pods were ready; maxUnavailable 0 allows no fewer than 4", rw.fewest)
	}
}
