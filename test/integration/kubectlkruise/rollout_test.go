package kubectlkruise

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// status waits to success; history lists both revisions; undo restores the previous
// image in place through the rollback subresource; an undo to a missing revision fails
// with the server's error and changes nothing.
func TestStatusHistoryUndoInPlace(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	createCloneSet(t, ns, newCloneSet("rb", 2, "nginx:1.25"))
	out, _, err := kk(t, "rollout", "status", "clone/rb", "-n", ns, "--timeout=2m")
	if err != nil {
		t.Fatalf("rollout status: %v", err)
	}
	mustContain(t, "rollout status", out, `cloneset "rb" successfully rolled out`)
	v1 := waitRolledOut(t, ns, "rb", "nginx:1.25", 2)
	uids := map[string]types.UID{}
	for _, p := range podsOf(t, ns, v1) {
		uids[p.Name] = p.UID
	}

	if _, _, err := c.Kubectl(t, "patch", "clone", "rb", "-n", ns, "--type=json",
		"-p", `[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}]`); err != nil {
		t.Fatal(err)
	}
	if out, _, err = kk(t, "rollout", "status", "clonesets.apps.kruise.io/rb", "-n", ns, "--timeout=2m"); err != nil {
		t.Fatalf("rollout status after the image change: %v", err)
	}
	mustContain(t, "rollout status", out, "successfully rolled out")

	out, _, err = kk(t, "rollout", "history", "clone/rb", "-n", ns)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "history", out, "REVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n")
	out, _, err = kk(t, "rollout", "history", "clone/rb", "-n", ns, "--revision=1")
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "history --revision=1", out, "nginx:1.25")

	before := getCloneSet(t, ns, "rb")
	_, stderr, err := kk(t, "rollout", "undo", "clone/rb", "-n", ns, "--to-revision=42")
	if err == nil {
		t.Fatal("undo to a missing revision succeeded")
	}
	mustContain(t, "undo --to-revision=42 stderr", stderr, "Error from server (BadRequest): ")
	mustContain(t, "undo --to-revision=42 stderr", stderr, "available revisions: 1, 2")
	if after := getCloneSet(t, ns, "rb"); after.ResourceVersion != before.ResourceVersion {
		t.Fatalf("a failed undo wrote the CloneSet (resourceVersion %s -> %s)", before.ResourceVersion, after.ResourceVersion)
	}

	if out, _, err = kk(t, "rollout", "undo", "clone/rb", "-n", ns, "--dry-run=server"); err != nil {
		t.Fatal(err)
	}
	mustContain(t, "undo --dry-run=server", out, "rolled back (server dry run)")
	if img := getCloneSet(t, ns, "rb").Spec.Template.Spec.Containers[0].Image; img != "nginx:1.26" {
		t.Fatalf("server dry run changed the image to %s", img)
	}

	// A client dry run asks the server too (only it picks revisions): it shows the
	// restored template and writes nothing.
	if out, _, err = kk(t, "rollout", "undo", "clone/rb", "-n", ns, "--dry-run=client",
		"-o", "jsonpath={.spec.template.spec.containers[0].image}"); err != nil {
		t.Fatal(err)
	}
	if out != "nginx:1.25" {
		t.Fatalf("undo --dry-run=client shows image %q, want the previous revision's nginx:1.25", out)
	}
	if img := getCloneSet(t, ns, "rb").Spec.Template.Spec.Containers[0].Image; img != "nginx:1.26" {
		t.Fatalf("client dry run changed the image to %s", img)
	}

	if out, _, err = kk(t, "rollout", "undo", "clone/rb", "-n", ns); err != nil {
		t.Fatal(err)
	}
	mustContain(t, "undo", out, "cloneset.apps.kruise.io/rb rolled back")
	rolled := waitRolledOut(t, ns, "rb", "nginx:1.25", 2)
	for _, p := range podsOf(t, ns, rolled) {
		if uids[p.Name] != p.UID {
			t.Errorf("pod %s was recreated; undo must roll back in place", p.Name)
		}
	}
}

// A rollout that cannot finish (pods fit no node) makes status exit non-zero at its timeout.
func TestStatusTimesOut(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	cs := newCloneSet("stuck", 1, "nginx:1.25")
	cs.Spec.Template.Spec.NodeSelector = map[string]string{"kruise-native.io/no-such-node": "true"}
	createCloneSet(t, ns, cs)
	out, stderr, err := kk(t, "rollout", "status", "clone/stuck", "-n", ns, "--timeout=5s")
	if err == nil {
		t.Fatalf("rollout status of a stuck rollout succeeded: %s", out)
	}
	mustContain(t, "status stderr", stderr, "timed out waiting for the rollout")
	mustContain(t, "status stdout", out, "Waiting for rollout to finish")
}

// A paused CloneSet keeps its pods on the old image; resume lets the rollout finish.
func TestPauseResumeHoldRollout(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	createCloneSet(t, ns, newCloneSet("held", 2, "nginx:1.25"))
	waitRolledOut(t, ns, "held", "nginx:1.25", 2)
	// Named in v1alpha1 (where a CloneSet keeps paused elsewhere): the plugin works in
	// its one version, and the server converts.
	out, _, err := kk(t, "rollout", "pause", "clonesets.v1alpha1.apps.kruise.io/held", "-n", ns)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "pause", out, "cloneset.apps.kruise.io/held paused")
	if !getCloneSet(t, ns, "held").Spec.UpdateStrategy.Paused {
		t.Fatal("spec.updateStrategy.paused not set")
	}
	if _, _, err := c.Kubectl(t, "patch", "clone", "held", "-n", ns, "--type=json",
		"-p", `[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}]`); err != nil {
		t.Fatal(err)
	}
	framework.Consistently(t, 5*time.Second, func() (bool, string) {
		cs := getCloneSet(t, ns, "held")
		for _, p := range podsOf(t, ns, cs) {
			if p.Spec.Containers[0].Image != "nginx:1.25" {
				return false, "pod " + p.Name + " updated while paused"
			}
		}
		return true, ""
	})
	if out, _, err = kk(t, "rollout", "resume", "clone/held", "-n", ns); err != nil {
		t.Fatal(err)
	}
	mustContain(t, "resume", out, "cloneset.apps.kruise.io/held resumed")
	waitRolledOut(t, ns, "held", "nginx:1.26", 2)
}

// Wrong input changes nothing and exits non-zero with a kubectl-style error.
func TestUnsupportedKindsFail(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	cm, err := c.Client.CoreV1().ConfigMaps(ns).Create(context.Background(),
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, err := kk(t, "rollout", "pause", "configmap/cm", "-n", ns)
	if err == nil {
		t.Fatal("rollout pause of a ConfigMap succeeded")
	}
	mustContain(t, "pause configmap stderr", stderr, `error: rollout pause is not supported for "configmaps"`)
	after, err := c.Client.CoreV1().ConfigMaps(ns).Get(context.Background(), "cm", metav1.GetOptions{})
	if err != nil || after.ResourceVersion != cm.ResourceVersion {
		t.Fatalf("configmap changed: %v", err)
	}
	if _, stderr, err = kk(t, "rollout", "undo", "nosuchkind/x", "-n", ns); err == nil {
		t.Fatal("rollout undo of an unknown type succeeded")
	}
	mustContain(t, "undo unknown type stderr", stderr, `the server doesn't have a resource type "nosuchkind"`)
}
