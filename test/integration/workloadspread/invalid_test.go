package workloadspread

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func metav1GetOptions() metav1.GetOptions { return metav1.GetOptions{} }

// Bad input is refused by kubectl apply (422) with the field that is wrong, and nothing
// is stored.
func TestBadInputRefusedWithTheField(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	spread := func(name, target, subsets string) string {
		return "apiVersion: apps.kruise.io/v1alpha1\nkind: WorkloadSpread\nmetadata:\n  name: " + name +
			"\nspec:\n  targetRef:\n" + target + "  subsets:\n" + subsets
	}
	cloneSet := "    apiVersion: apps.kruise.io/v1alpha1\n    kind: CloneSet\n    name: web\n"
	for _, tc := range []struct{ name, manifest, field string }{
		{"a DaemonSet target", spread("bad-kind", "    apiVersion: apps/v1\n    kind: DaemonSet\n    name: web\n", "  - name: a\n"), "spec.targetRef.kind"},
		{"duplicate subset names", spread("bad-dup", cloneSet, "  - name: a\n  - name: a\n"), "spec.subsets[1].name"},
		{"maxReplicas over 100%", spread("bad-max", cloneSet, "  - name: a\n    maxReplicas: 150%\n"), "spec.subsets[0].maxReplicas"},
		{"negative maxReplicas", spread("bad-neg", cloneSet, "  - name: a\n    maxReplicas: -1\n"), "spec.subsets[0].maxReplicas"},
		{"a patch that is no pod", spread("bad-patch", cloneSet, "  - name: a\n    patch:\n      metadata:\n        labels: zone\n"), "spec.subsets[0].patch"},
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
