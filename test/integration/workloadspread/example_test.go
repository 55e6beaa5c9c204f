package workloadspread

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// examples/workloadspread.yaml applied unchanged: the CloneSet's 2 pods go to
// zone a; scaled to 6, 3 are in zone a and 3 in zone b, each with its subset's
// annotation and the patch's zone label; status.subsetStatuses shows subset-a full;
// `kubectl get ws` prints OpenKruise's columns.
func TestExample(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	data, err := os.ReadFile(filepath.Join(c.Root, "examples", "workloadspread.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := c.KubectlStdin(t, string(data), "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	waitZones(t, ns, "ws-demo-app", 2*time.Minute, map[string]int{"a": 2})
	scaleCloneSet(t, ns, "ws-demo-app", 6)
	waitZones(t, ns, "ws-demo-app", 2*time.Minute, map[string]int{"a": 3, "b": 3})
	waitCounted(t, ns, "ws-demo", time.Minute, func(s []appsv1alpha1.WorkloadSpreadSubsetStatus) bool {
		return s[0].Name == "subset-a" && s[0].MissingReplicas == 0 && len(s[0].CreatingPods) == 0 &&
			s[1].Name == "subset-b" && s[1].MissingReplicas == -1
	})
	out, stderr, err := c.Kubectl(t, "get", "pods", "-n", ns, "-l", "zone=a", "-o", "name")
	if err != nil || len(strings.Fields(out)) != 3 {
		t.Errorf("pods labelled zone=a by the patch: %q %v %s", out, err, stderr)
	}
	out, stderr, err = c.Kubectl(t, "get", "ws", "-n", ns)
	if err != nil {
		t.Fatalf("kubectl get ws: %v: %s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME WORKLOADNAME KIND ADAPTIVE AGE" ||
		!strings.HasPrefix(strings.Join(strings.Fields(lines[1]), " "), "ws-demo ws-demo-app CloneSet false ") {
		t.Errorf("kubectl get ws:\n%s", out)
	}
}
