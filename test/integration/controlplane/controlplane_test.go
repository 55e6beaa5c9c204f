// Package controlplane checks the local control plane itself — no Kruise code needed:
// nodes come up Ready through kwok, a Deployment gets its pods running, namespace deletion
// completes (it needs working discovery, including every aggregated API), and, when
// kruise-apiserver is built, its APIServices are Available.
package controlplane

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) { framework.Main(m) }

func TestNodesReady(t *testing.T) {
	c := framework.Get(t)
	if c.Nodes == 0 {
		t.Fatal("the stack has no kwok nodes (NODES=0); this test needs at least one")
	}
	out, _, err := c.Kubectl(t, "get", "nodes", "-l", "type=kwok", "--no-headers",
		"-o", `custom-columns=NAME:.metadata.name,READY:.status.conditions[?(@.type=="Ready")].status,ZONE:.metadata.labels.topology\.kubernetes\.io/zone,CPU:.status.allocatable.cpu`)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("kubectl get nodes:\n%s", out)
	rows := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 4 {
			rows[f[0]] = f[1:]
		}
	}
	zones := []string{"a", "b", "c"}
	for i := 0; i < c.Nodes; i++ {
		name := fmt.Sprintf("kwok-node-%d", i)
		row, ok := rows[name]
		if !ok {
			t.Errorf("node %s not listed", name)
			continue
		}
		if row[0] != "True" {
			t.Errorf("node %s Ready=%s, want True", name, row[0])
		}
		if want := zones[i%3]; row[1] != want {
			t.Errorf("node %s zone %s, want %s", name, row[1], want)
		}
		if row[2] != "32" {
			t.Errorf("node %s allocatable cpu %s, want 32", name, row[2])
		}
	}
	if len(rows) != c.Nodes {
		t.Errorf("got %d kwok nodes, want %d", len(rows), c.Nodes)
	}
}

func TestDeploymentBecomesReady(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)

	labels := map[string]string{"app": "web"}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.27"}},
				},
			},
		},
	}
	if _, err := c.Client.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		got, err := c.Client.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return got.Status.ReadyReplicas == 3 && got.Status.UpdatedReplicas == 3, nil
	})

	pods, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		if p.Status.Phase != corev1.PodRunning || !strings.HasPrefix(p.Spec.NodeName, "kwok-node-") {
			t.Errorf("pod %s: phase %s on node %q, want Running on a kwok node", p.Name, p.Status.Phase, p.Spec.NodeName)
		}
	}
	out, _, err := c.Kubectl(t, "get", "deployment", "web", "-n", ns, "--no-headers")
	if err != nil {
		t.Fatal(err)
	}
	if f := strings.Fields(out); len(f) < 2 || f[1] != "3/3" {
		t.Errorf("kubectl get deployment: %q, want READY 3/3", strings.TrimSpace(out))
	}
}

func TestNamespaceDeletionCompletes(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "data", Namespace: ns}, Data: map[string]string{"k": "v"}}
	if _, err := c.Client.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: ns},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
	if _, err := c.Client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Client.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		got, err := c.Client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		return false, fmt.Errorf("namespace %s still %s: %v", ns, got.Status.Phase, got.Status.Conditions)
	})
}

func TestKruiseAPIServicesAvailable(t *testing.T) {
	c := framework.Get(t)
	if !c.HasKruiseAPIServer() {
		t.Skipf("%s/kruise-apiserver is not built (make build); nothing to register", c.BinDir)
	}
	ctx := context.Background()
	registered, err := c.RegisteredKruiseAPIServices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// apps.kruise.io is the core of the product; other group/versions are registered
	// by hack/local-up.sh only once kruise-apiserver serves them
	for _, want := range []string{"v1alpha1.apps.kruise.io", "v1beta1.apps.kruise.io"} {
		if !slices.Contains(registered, want) {
			t.Errorf("APIService %s not registered (registered: %v)", want, registered)
		}
	}
	for _, name := range framework.KruiseAPIServices {
		if !slices.Contains(registered, name) {
			t.Logf("APIService %s not registered: kruise-apiserver does not serve it yet", name)
		}
	}
	for _, name := range registered {
		ok, msg, err := c.APIServiceAvailable(ctx, name)
		if err != nil {
			t.Errorf("APIService %s: %v", name, err)
		} else if !ok {
			t.Errorf("APIService %s not Available: %s", name, msg)
		}
		// discovery through kube-apiserver reaches kruise-apiserver
		version, group, _ := strings.Cut(name, ".")
		if _, err := c.Client.Discovery().ServerResourcesForGroupVersion(group + "/" + version); err != nil {
			t.Errorf("discovery of %s/%s: %v", group, version, err)
		}
	}
}

// The framework can restart kruise-apiserver (tests of Kruise storage and availability
// use it); afterwards its APIServices are Available again.
func TestKruiseAPIServerRestart(t *testing.T) {
	c := framework.Get(t)
	if !c.HasKruiseAPIServer() {
		t.Skipf("%s/kruise-apiserver is not built (make build)", c.BinDir)
	}
	c.RestartKruiseAPIServer(t)
	registered, err := c.RegisteredKruiseAPIServices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range registered {
		ok, msg, err := c.APIServiceAvailable(context.Background(), name)
		if err != nil || !ok {
			t.Errorf("after restart, APIService %s not Available: %s %v", name, msg, err)
		}
	}
}
