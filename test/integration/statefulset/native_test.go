package statefulset

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const nativeManifest = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: web
  replicas: 3
  selector:
    matchLabels:
      app: native
  template:
    metadata:
      labels:
        app: native
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        volumeMounts:
        - name: data
          mountPath: /data
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: ["ReadWriteOnce"]
      storageClassName: CLASS
      resources:
        requests:
          storage: 1Gi
`

// side is one of the two sets compared: kube's StatefulSet or ours, each in its own
// namespace under the same name, so that pod and claim names can be compared as is.
type side struct {
	name, ns, resource string
}

func (s side) readyPods(t *testing.T, n int) func() (bool, error) {
	return func() (bool, error) {
		pods := livePods(t, s.ns)
		ready := 0
		for _, p := range pods {
			if isPodReady(&p) {
				ready++
			}
		}
		return len(pods) == n && ready == n, nil
	}
}

// both runs step on the two sides at once and waits for each.
func both(t *testing.T, sides []side, step func(side)) {
	var wg sync.WaitGroup
	for _, s := range sides {
		wg.Add(1)
		go func() { defer wg.Done(); step(s) }()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
}

// A native StatefulSet manifest with only apiVersion changed behaves as kube's own
// controller on the same stack: the same pod names, identities and claims, created
// one at a time in ascending order, scaled down and updated in descending order.
func TestNativeManifestMatchesKubeStatefulSet(t *testing.T) {
	c := framework.Get(t)
	class := "native-" + c.CreateNamespace(t)
	createVolumes(t, class, 10)
	native := side{"kube", c.CreateNamespace(t), "statefulsets.apps"}
	kruise := side{"kruise", c.CreateNamespace(t), "statefulsets.apps.kruise.io"}
	sides := []side{native, kruise}
	manifest := strings.ReplaceAll(nativeManifest, "CLASS", class)
	kubectl := func(s side, args ...string) {
		if _, _, err := c.Kubectl(t, append(args, "-n", s.ns)...); err != nil {
			t.Error(err)
		}
	}

	recs := map[string]*podRecorder{}
	for _, s := range sides {
		recs[s.name] = recordPods(t, s.ns)
	}
	both(t, sides, func(s side) {
		m := manifest
		if s == kruise {
			m = strings.Replace(m, "apiVersion: apps/v1", "apiVersion: apps.kruise.io/v1beta1", 1)
		}
		if _, err := c.KubectlStdin(t, m, "apply", "-n", s.ns, "-f", "-"); err != nil {
			t.Error(err)
			return
		}
		framework.WaitFor(t, 3*time.Minute, s.readyPods(t, 3))
	})
	type seen struct{ created, deleted []string }
	results := map[string]seen{}
	restart := func() {
		for _, s := range sides {
			created, deleted, _ := recs[s.name].result(t)
			results[s.name] = seen{created, deleted}
			recs[s.name] = recordPods(t, s.ns)
		}
	}
	compare := func(what string) {
		t.Helper()
		restart()
		if k, o := results["kube"], results["kruise"]; !slices.Equal(k.created, o.created) || !slices.Equal(k.deleted, o.deleted) {
			t.Errorf("%s: kube created %v deleted %v; ours created %v deleted %v", what, k.created, k.deleted, o.created, o.deleted)
		}
	}
	compare("create 3")
	if got := results["kruise"].created; !slices.Equal(got, []string{"web-0", "web-1", "web-2"}) {
		t.Errorf("created %v, want web-0, web-1, web-2 in order", got)
	}

	// Identities and claims.
	kubePods, ourPods := livePods(t, native.ns), livePods(t, kruise.ns)
	if !slices.Equal(slices.Sorted(maps.Keys(kubePods)), slices.Sorted(maps.Keys(ourPods))) {
		t.Fatalf("pods: kube %v, ours %v", slices.Sorted(maps.Keys(kubePods)), slices.Sorted(maps.Keys(ourPods)))
	}
	for name, k := range kubePods {
		o := ourPods[name]
		if got, want := identity(&o), identity(&k); got != want {
			t.Errorf("pod %s: ours %s, kube %s", name, got, want)
		}
	}
	if k, o := claimNames(t, native.ns), claimNames(t, kruise.ns); !slices.Equal(k, o) || !slices.Equal(o, []string{"data-web-0", "data-web-1", "data-web-2"}) {
		t.Errorf("claims: kube %v, ours %v", k, o)
	}
	for _, name := range claimNames(t, kruise.ns) {
		k, err1 := c.Client.CoreV1().PersistentVolumeClaims(native.ns).Get(context.Background(), name, metav1.GetOptions{})
		o, err2 := c.Client.CoreV1().PersistentVolumeClaims(kruise.ns).Get(context.Background(), name, metav1.GetOptions{})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !maps.Equal(k.Labels, o.Labels) || len(k.OwnerReferences) != len(o.OwnerReferences) {
			t.Errorf("claim %s: kube labels %v owners %d, ours %v owners %d", name, k.Labels, len(k.OwnerReferences), o.Labels, len(o.OwnerReferences))
		}
	}

	// Scale down to 1 (descending, one at a time), then back to 3 (ascending).
	both(t, sides, func(s side) {
		kubectl(s, "scale", s.resource+"/web", "--replicas=1")
		framework.WaitFor(t, 3*time.Minute, s.readyPods(t, 1))
	})
	compare("scale 3 -> 1")
	if got := results["kruise"].deleted; !slices.Equal(got, []string{"web-2", "web-1"}) {
		t.Errorf("deleted %v, want web-2 then web-1", got)
	}
	both(t, sides, func(s side) {
		kubectl(s, "scale", s.resource+"/web", "--replicas=3")
		framework.WaitFor(t, 3*time.Minute, s.readyPods(t, 3))
	})
	compare("scale 1 -> 3")

	// A rolling update: highest ordinal first, each replaced before the next goes.
	both(t, sides, func(s side) {
		// (kubectl set image knows only built-in kinds; a patch works for both.)
		kubectl(s, "patch", s.resource+"/web", "--type=json",
			"-p", `[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}]`)
		framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
			pods := livePods(t, s.ns)
			for _, p := range pods {
				if p.Spec.Containers[0].Image != "nginx:1.26" || !isPodReady(&p) {
					return false, nil
				}
			}
			return len(pods) == 3, nil
		})
	})
	compare("rolling update")
	if got := results["kruise"].deleted; !slices.Equal(got, []string{"web-2", "web-1", "web-0"}) {
		t.Errorf("update deleted %v, want web-2, web-1, web-0", got)
	}
}

// identity is what makes a pod the set's member at its ordinal. Left out: the
// revision (its hash differs between the two kinds), Kruise's own labels (the
// lifecycle state) and what the API server copies from the node on binding.
func identity(p *corev1.Pod) string {
	labels := maps.Clone(p.Labels)
	maps.DeleteFunc(labels, func(k, _ string) bool {
		return k == "controller-revision-hash" || strings.Contains(k, "kruise.io/") || strings.HasPrefix(k, "topology.kubernetes.io/")
	})
	var claims []string
	for _, v := range p.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			claims = append(claims, v.Name+"="+v.PersistentVolumeClaim.ClaimName)
		}
	}
	return fmt.Sprintf("hostname=%s subdomain=%s labels=%v claims=%v", p.Spec.Hostname, p.Spec.Subdomain, labels, claims)
}
