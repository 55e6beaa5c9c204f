package uniteddeployment

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// Bad input is refused with the field, by kubectl as users type it, and nothing is stored.
func TestBadInputRefused(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	good := udManifest("bad", workloadTemplate("cloneSetTemplate", "bad", ""))
	for _, tc := range []struct {
		name, from, to, field string
	}{
		{"duplicate subset names", "- name: subset-b", "- name: subset-a", "spec.topology.subsets[1].name: Duplicate value"},
		{"subset sum above replicas", "replicas: 1\n", "replicas: 5\n", "spec.topology.subsets[0].replicas"},
		{"percent over 100%", "replicas: 1\n", "replicas: 120%\n", "spec.topology.subsets[0].replicas"},
		{"two templates at once", "  topology:", workloadTemplate("deploymentTemplate", "bad", "") + "\n  topology:", "spec.template"},
		{"selector not matching the template", "            labels:\n              app: bad", "            labels:\n              app: other",
			"spec.template.cloneSetTemplate.spec.template.metadata.labels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			manifest := strings.Replace(good, tc.from, tc.to, 1)
			if manifest == good {
				t.Fatalf("the case changed nothing")
			}
			out, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-")
			if err == nil {
				t.Fatalf("kubectl apply accepted it:\n%s", out)
			}
			// The error carries kubectl's standard error.
			if msg := err.Error(); !strings.Contains(msg, tc.field) || !strings.Contains(msg, "is invalid") {
				t.Errorf("kubectl apply said %q, want the field %s", msg, tc.field)
			}
			_, err = kruise(c).AppsV1beta1().UnitedDeployments(ns).Get(context.Background(), "bad", metav1.GetOptions{})
			if !apierrors.IsNotFound(err) {
				t.Errorf("stored anyway (get: %v)", err)
			}
		})
	}
}
