package workloadspread

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func metav1GetOptions() metav1.GetOptions { return metav1.GetOptions{} }

// spreadManifest is a WorkloadSpread's YAML for kubectl: target and subsets are the
// lines under spec.targetRef and spec.subsets, indented and ending in a newline.
func spreadManifest(name, target, subsets string) string {
	return "apiVersion: apps.kruise.io/v1alpha1\nkind: WorkloadSpread\nmetadata:\n  name: " + name +
		"\nspec:\n  targetRef:\n" + target + "  subsets:\n" + subsets
}

// cloneSetTarget is the spec.targetRef lines of spreadManifest naming CloneSet name.
func cloneSetTarget(name string) string {
	return "    apiVersion: apps.kruise.io/v1alpha1\n    kind: CloneSet\n    name: " + name + "\n"
}

// Bad input is refused by kubectl apply (422) with the field that is wrong, and nothing
// is stored.
func TestBadInputRefusedWithTheField(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	cloneSet := cloneSetTarget("web")
	for _, tc := range []struct{ name, manifest, field string }{
		{"a DaemonSet target", spreadManifest("bad-kind", "    apiVersion: apps/v1\n    kind: DaemonSet\n    name: web\n", "  - name: a\n"), "spec.targetRef.kind"},
		{"duplicate subset names", spreadManifest("bad-dup", cloneSet, "  - name: a\n  - name: a\n"), "spec.subsets[1].name"},
		{"maxReplicas over 100%", spreadManifest("bad-max", cloneSet, "  - name: a\n    maxReplicas: 150%\n"), "spec.subsets[0].maxReplicas"},
		{"negative maxReplicas", spreadManifest("bad-neg", cloneSet, "  - name: a\n    maxReplicas: -1\n"), "spec.subsets[0].maxReplicas"},
		{"maxReplicas of two types", spreadManifest("bad-mix", cloneSet, "  - name: a\n    maxReplicas: 2\n  - name: b\n    maxReplicas: 50%\n"), "spec.subsets[1].maxReplicas"},
		{"a patch that is no pod", spreadManifest("bad-patch", cloneSet, "  - name: a\n    patch:\n      metadata:\n        labels: zone\n"), "spec.subsets[0].patch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := c.KubectlStdin(t, tc.manifest, "apply", "-n", ns, "-f", "-")
			if err == nil {
				t.Fatalf("accepted:\n%s", out)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.field) || !strings.Contains(msg, "is invalid") {
				t.Errorf("refusal does not name %s as invalid:\n%s", tc.field, msg)
			}
			name := strings.TrimSpace(strings.SplitN(strings.SplitN(tc.manifest, "name: ", 2)[1], "\n", 2)[0])
			if _, err := kruise(t).AppsV1alpha1().WorkloadSpreads(ns).Get(context.Background(), name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("%s was stored (get: %v)", name, err)
			}
		})
	}
}

// A workload has one WorkloadSpread: a second one of it is refused naming the first
// (KruiseTargetConflict), and the first's target cannot be moved to another workload.
func TestOneSpreadPerWorkload(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	spread := func(name, target string) string { return spreadManifest(name, cloneSetTarget(target), "  - name: a\n") }
	if out, err := c.KubectlStdin(t, spread("first", "web"), "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("first spread: %v\n%s", err, out)
	}
	// The informer behind the plugin may not have seen the first one yet: retry until
	// the refusal comes, deleting a second spread stored meanwhile before the next try.
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		out, err := c.KubectlStdin(t, spread("second", "web"), "apply", "-n", ns, "-f", "-")
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, "spec.targetRef") || !strings.Contains(msg, `"first"`) {
				t.Fatalf("refusal does not name spec.targetRef and the first spread:\n%s", msg)
			}
			return true, nil
		}
		if _, _, derr := c.Kubectl(t, "delete", "-n", ns, "workloadspreads.apps.kruise.io", "second", "--wait"); derr != nil {
			t.Fatal(derr)
		}
		return false, fmt.Errorf("a second spread of CloneSet web was accepted:\n%s", out)
	})
	if out, err := c.KubectlStdin(t, spread("third", "api"), "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("a spread of another workload: %v\n%s", err, out)
	}
	_, _, err := c.Kubectl(t, "patch", "-n", ns, "workloadspreads.apps.kruise.io", "first", "--type=merge",
		"-p", `{"spec":{"targetRef":{"name":"db"}}}`)
	if err == nil || !strings.Contains(err.Error(), "spec.targetRef") || !strings.Contains(err.Error(), "immutable") {
		t.Fatalf("moving the target: want refused at spec.targetRef as immutable, got %v", err)
	}
}
