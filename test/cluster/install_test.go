package cluster

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

const (
	releaseName     = harness.ReleaseName
	kruiseNamespace = harness.KruiseNamespace
)

func (s *suite) chartDir() string { return s.c.ChartDir() }

// chartValues are the values the node needs: the node's containerd socket for the node
// daemon, and single mode (the node has no DNS, which the etcd cluster's members need)
// or, once testHelmInstallExternalEtcd started it, the outside etcd with 2 replicas.
func (s *suite) chartValues() []string {
	v := s.c.NodeValues()
	if s.outside == nil {
		return append(v, "--set", "etcd.mode=single")
	}
	return append(v, "--set", "etcd.mode=external", "--set", "apiserver.replicas=2",
		"--set", "etcd.external.servers="+s.outside.Servers,
		"--set-file", "etcd.external.ca="+s.outside.CAFile,
		"--set-file", "etcd.external.cert="+s.outside.CertFile,
		"--set-file", "etcd.external.key="+s.outside.KeyFile)
}

// etcdMode names the chart's etcd.mode the suite runs now.
func (s *suite) etcdMode() string {
	if s.outside == nil {
		return "etcd.mode=single, 1 replica"
	}
	return "etcd.mode=external, 2 replicas"
}

// createEtcdPV makes the etcd PersistentVolume the chart's claim binds to (harness).
func (s *suite) createEtcdPV(t *testing.T) {
	t.Helper()
	if err := s.c.CreateEtcdPV(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// testHelmInstall: helm install with etcd.mode=single; the post-install hook registers the
// APIServices once kruise-apiserver is Ready; all four become Available and every pod of
// kruise-system runs.
func (s *suite) testHelmInstall(t *testing.T) {
	s.createEtcdPV(t)
	s.helmInstall(t)
}

// testHelmInstallExternalEtcd: the chart with etcd.mode=external on an etcd outside the
// pods (TLS, client certificates given as values), two kruise-apiserver replicas.
func (s *suite) testHelmInstallExternalEtcd(t *testing.T) {
	e, err := s.c.StartOutsideEtcd(context.Background())
	must(t, err)
	s.outside = &e
	s.helmInstall(t)
	pods, err := s.c.Client.CoreV1().Pods(kruiseNamespace).List(context.Background(),
		metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=kruise-apiserver"})
	must(t, err)
	if len(pods.Items) != 2 {
		t.Fatalf("%d kruise-apiserver pods, want 2", len(pods.Items))
	}
}

// helmInstall installs the chart with chartValues and waits for the APIServices and
// the pods.
func (s *suite) helmInstall(t *testing.T) {
	ctx := context.Background()
	begin := time.Now()
	args := append([]string{"install", releaseName, s.chartDir(), "--wait", "--timeout", "5m"}, s.chartValues()...)
	out, err := s.run(ctx, "", "helm", args...)
	if err != nil {
		s.dumpKruiseSystem(t)
		t.Fatal(err)
	}
	installed := time.Since(begin)
	if err := s.waitAPIServicesAvailable(ctx, 2*time.Minute); err != nil {
		s.dumpKruiseSystem(t)
		t.Fatal(err)
	}
	available := time.Since(begin)
	t.Logf("helm install returned in %s (hooks included); all 4 APIServices Available %s after the install began",
		installed.Round(100*time.Millisecond), available.Round(100*time.Millisecond))
	t.Logf("helm install output:\n%s", firstLines(out, 8))
	names, err := s.waitKruiseSystemReady(ctx, 2*time.Minute)
	if err != nil {
		s.dumpKruiseSystem(t)
		t.Fatal(err)
	}
	t.Logf("kruise-system pods running and ready %s after the install began: %s",
		time.Since(begin).Round(100*time.Millisecond), strings.Join(names, ", "))
	// Discovery of every Kruise group through kube-apiserver.
	res := s.kubectl(t, "api-resources", "--api-group=apps.kruise.io", "-o", "name")
	t.Logf("apps.kruise.io resources: %s", strings.Join(strings.Fields(res), " "))
}

// waitKruiseSystemReady waits until kruise-system's pods run and are ready (harness).
func (s *suite) waitKruiseSystemReady(ctx context.Context, timeout time.Duration) ([]string, error) {
	return s.c.WaitKruiseSystemReady(ctx, timeout)
}

// dumpKruiseSystem logs the state of kruise-system for a failure's diagnosis.
func (s *suite) dumpKruiseSystem(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	for _, args := range [][]string{
		{"-n", kruiseNamespace, "get", "pods,jobs,pvc,svc,endpoints", "-o", "wide"},
		{"get", "apiservices", "-o", "wide"},
		{"-n", kruiseNamespace, "get", "events", "--sort-by=.lastTimestamp"},
	} {
		out, _ := s.run(ctx, "", "kubectl", args...)
		t.Logf("kubectl %s:\n%s", strings.Join(args, " "), out)
	}
	pods, err := s.c.Client.CoreV1().Pods(kruiseNamespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return
	}
	for _, p := range pods.Items {
		for _, c := range p.Spec.Containers {
			out, _ := s.run(ctx, "", "kubectl", "-n", kruiseNamespace, "logs", p.Name, "-c", c.Name, "--tail=30")
			t.Logf("logs %s/%s:\n%s", p.Name, c.Name, out)
		}
	}
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}
