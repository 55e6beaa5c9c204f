package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/yaml"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// kustomizeDir writes a kustomization over artifacts/deploy/overlays/single that changes
// only what this node needs: the host directory of the node daemon's runtime socket (the
// container still sees it at /run/containerd). It lives under _output, inside the
// repository, so that the overlay is a relative path (kustomize's default load
// restrictions).
func (s *suite) kustomizeDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(s.c.Layout.Root, "_output", "test-cluster", "kustomize")
	must(t, os.MkdirAll(dir, 0o755))
	k := fmt.Sprintf(`apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- ../../../artifacts/deploy/overlays/single
patches:
- patch: |-
    apiVersion: apps/v1
    kind: DaemonSet
    metadata:
      name: kruise-node-daemon
      namespace: kruise-system
    spec:
      template:
        spec:
          volumes:
          - name: runtime-socket-dir
            hostPath:
              path: %s
`, filepath.Dir(s.c.Layout.ContainerdSocket()))
	must(t, os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o644))
	return dir
}

// kustomizeObjects renders the kustomization (kubectl kustomize) into objects.
func (s *suite) kustomizeObjects(t *testing.T, dir string) []*unstructured.Unstructured {
	t.Helper()
	out, err := s.run(context.Background(), "", "kubectl", "kustomize", dir)
	must(t, err)
	return decodeObjects(t, out)
}

// decodeObjects parses a multi-document YAML stream (kubectl kustomize, helm template)
// into its objects, leaving out empty documents.
func decodeObjects(t *testing.T, stream string) []*unstructured.Unstructured {
	t.Helper()
	dec := yaml.NewYAMLOrJSONDecoder(strings.NewReader(stream), 4096)
	var objs []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return objs
			}
			t.Fatal(err)
		}
		if u.GetKind() != "" {
			objs = append(objs, u)
		}
	}
}

// testKustomizeInstall: kubectl apply -k artifacts/deploy/overlays/single (through the
// node's kustomization), then hack/gen-certs.sh --apply as artifacts/deploy/README.md
// says; every APIService becomes Available and every pod of kruise-system runs.
func (s *suite) testKustomizeInstall(t *testing.T) {
	ctx := context.Background()
	s.createEtcdPV(t)
	dir := s.kustomizeDir(t)
	begin := time.Now()
	out := s.kubectl(t, "apply", "-k", dir)
	t.Logf("kubectl apply -k: %d objects", strings.Count(out, "\n"))
	cmd := exec.Command(filepath.Join(s.c.Layout.Root, "hack", "gen-certs.sh"), "--apply")
	cmd.Env = append(os.Environ(), "CERT_DIR="+s.c.Layout.StatePath("certs"), "KUBECONFIG="+s.c.Layout.Kubeconfig(),
		"PATH="+s.c.Layout.BinDir+":"+os.Getenv("PATH"))
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hack/gen-certs.sh --apply: %v\n%s", err, b)
	}
	t.Logf("hack/gen-certs.sh --apply:\n%s", firstLines(string(b), 12))
	if err := s.waitAPIServicesAvailable(ctx, 3*time.Minute); err != nil {
		s.dumpKruiseSystem(t)
		t.Fatal(err)
	}
	available := time.Since(begin)
	names, err := s.waitKruiseSystemReady(ctx, 2*time.Minute)
	if err != nil {
		s.dumpKruiseSystem(t)
		t.Fatal(err)
	}
	t.Logf("all 4 APIServices Available %s after kubectl apply -k began; pods ready: %s",
		available.Round(100*time.Millisecond), strings.Join(names, ", "))
}

// testKustomizeDelete: kubectl delete -k leaves nothing of what the kustomization
// renders, and no pod of a Kruise workload.
func (s *suite) testKustomizeDelete(t *testing.T) {
	ctx := context.Background()
	dir := s.kustomizeDir(t)
	objs := s.kustomizeObjects(t, dir)
	begin := time.Now()
	out, err := s.run(ctx, "", "kubectl", "delete", "-k", dir, "--wait=true", "--timeout=5m")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("kubectl delete -k: %d objects", strings.Count(out, "\n"))
	must(t, harness.WaitFor(ctx, 3*time.Minute, time.Second, "nothing left", func(ctx context.Context) error {
		left, err := s.leftovers(ctx, objs)
		if err != nil {
			return err
		}
		pods, err := s.c.Client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		for _, p := range pods.Items {
			for _, ref := range p.OwnerReferences {
				if strings.Contains(ref.APIVersion, "kruise.io") {
					left = append(left, "pod "+p.Namespace+"/"+p.Name)
				}
			}
		}
		if len(left) > 0 {
			return fmt.Errorf("left: %s", strings.Join(left, ", "))
		}
		return nil
	}))
	must(t, ignoreNotFound(s.c.Client.CoreV1().PersistentVolumes().Delete(ctx, harness.EtcdPV, metav1.DeleteOptions{})))
	t.Logf("NOTHING LEFT after kubectl delete -k (%s): none of its %d objects, no pod of a Kruise workload",
		time.Since(begin).Round(100*time.Millisecond), len(objs))
}
