package kubectlkruise

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// workloadCase is one Kruise workload kind the commands are exercised on, created from
// YAML with the real kubectl as a user would.
type workloadCase struct {
	kind string
	// ref is how the commands name the object: TYPE/NAME; resource is the TYPE alone.
	ref, resource string
	// printed is how kubectl's name printer reports the object.
	printed string
	// label selects the object's pods and the object itself.
	label string
	yaml  string
}

// workloadCases returns a CloneSet, an Advanced StatefulSet and an Advanced DaemonSet,
// each with one container "main" running image.
func workloadCases(image string) []workloadCase {
	podTemplate := func(app string) string {
		return fmt.Sprintf(`  selector:
    matchLabels: {app: %[1]s}
  template:
    metadata:
      labels: {app: %[1]s}
    spec:
      containers:
      - {name: main, image: %[2]q}
`, app, image)
	}
	return []workloadCase{
		{kind: "CloneSet", ref: "clonesets.apps.kruise.io/cs", resource: "clonesets.apps.kruise.io", printed: "cloneset.apps.kruise.io/cs", label: "app=cs", yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: cs, labels: {app: cs}}
spec:
  replicas: 2
  updateStrategy: {type: InPlaceIfPossible}
` + podTemplate("cs")},
		{kind: "StatefulSet", ref: "statefulsets.apps.kruise.io/sts", resource: "statefulsets.apps.kruise.io", printed: "statefulset.apps.kruise.io/sts", label: "app=sts", yaml: `apiVersion: apps.kruise.io/v1beta1
kind: StatefulSet
metadata: {name: sts, labels: {app: sts}}
spec:
  replicas: 2
  serviceName: sts
  podManagementPolicy: Parallel
` + podTemplate("sts")},
		{kind: "DaemonSet", ref: "daemonsets.apps.kruise.io/ds", resource: "daemonsets.apps.kruise.io", printed: "daemonset.apps.kruise.io/ds", label: "app=ds", yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: DaemonSet
metadata: {name: ds, labels: {app: ds}}
spec:
` + podTemplate("ds")},
	}
}

func (w workloadCase) apply(t *testing.T, ns string) {
	t.Helper()
	if _, err := framework.Get(t).KubectlStdin(t, w.yaml, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
}

// jsonpath reads one field of an object with the real kubectl.
func jsonpath(t *testing.T, ns, ref, path string) string {
	t.Helper()
	out, _, err := framework.Get(t).Kubectl(t, "get", ref, "-n", ns, "-o", "jsonpath={"+path+"}")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

// mustFailUnchanged runs a command that must fail with a kubectl-style error naming
// wantErr, and checks that the object's spec was not written (its generation, which
// status writes of the controller leave alone).
func mustFailUnchanged(t *testing.T, ns, ref, wantErr string, args ...string) {
	t.Helper()
	before := jsonpath(t, ns, ref, ".metadata.generation")
	out, stderr, err := kk(t, args...)
	if err == nil {
		t.Fatalf("kubectl kruise %s succeeded: %s", strings.Join(args, " "), out)
	}
	if !strings.HasPrefix(stderr, "error: ") && !strings.HasPrefix(stderr, "Error from server") {
		t.Errorf("stderr of kubectl kruise %s = %q, want a kubectl-style error", strings.Join(args, " "), stderr)
	}
	mustContain(t, "stderr", stderr, wantErr)
	if after := jsonpath(t, ns, ref, ".metadata.generation"); after != before {
		t.Fatalf("kubectl kruise %s failed but wrote %s (generation %s -> %s)", strings.Join(args, " "), ref, before, after)
	}
}
