package deletionprotection

import (
	"strings"
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The deletion webhook never intercepts kube-system or kruise-system: neither the
// objects in them nor the namespaces themselves, even when labelled Always. A labelled
// namespace of the test's, as the control, is refused.
func TestSystemNamespacesNeverIntercepted(t *testing.T) {
	c := framework.Get(t)
	control := c.CreateNamespace(t)
	kubectl(t, "label", "namespace", control, label+"=Always")
	t.Cleanup(func() { unprotect(t, "namespace/"+control) })
	waitRefused(t, "delete", "namespace", control)

	for _, ns := range []string{"kube-system", "kruise-system"} {
		kubectl(t, "label", "--overwrite", "namespace", ns, label+"=Always")
		t.Cleanup(func() { unprotect(t, "namespace/"+ns) })

		// An Always Deployment in it deletes.
		deploy := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dp-exempt
  labels: {policy.kruise.io/delete-protection: Always}
spec:
  replicas: 0
  selector: {matchLabels: {app: dp-exempt}}
  template:
    metadata: {labels: {app: dp-exempt}}
    spec: {containers: [{name: app, image: app:v1}]}
`
		if _, err := c.KubectlStdin(t, deploy, "apply", "-n", ns, "-f", "-"); err != nil {
			t.Fatal(err)
		}
		kubectl(t, "delete", "-n", ns, "deployment", "dp-exempt")

		// The namespace itself: a dry run (nothing is deleted) is not ours to refuse.
		// kube-system is immortal (NamespaceLifecycle refuses it), kruise-system goes
		// through.
		_, stderr, err := c.Kubectl(t, "delete", "namespace", ns, "--dry-run=server")
		if strings.Contains(stderr, "deletion.validate.kruise-native.io") {
			t.Errorf("deleting namespace %s went to the deletion webhook: %s", ns, stderr)
		}
		if ns == "kruise-system" && err != nil {
			t.Errorf("dry-run delete of kruise-system: %v", err)
		}
	}
}
