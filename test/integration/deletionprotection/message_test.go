package deletionprotection

import (
	"strings"
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// openKruisePrefix is how OpenKruise's refusal begins; scripts written for it match it.
const openKruisePrefix = "forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection="

// A refused delete says what OpenKruise says, then why: for a built-in kind (through
// the deletion webhook) and for a Kruise kind (in-process), Always and Cascading.
func TestRefusalSaysWhatOpenKruiseSays(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	objects := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: always
  labels: {policy.kruise.io/delete-protection: Always}
spec:
  replicas: 0
  selector: {matchLabels: {app: always}}
  template:
    metadata: {labels: {app: always}}
    spec: {containers: [{name: app, image: app:v1}]}
---
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: cascading
  labels: {policy.kruise.io/delete-protection: Cascading}
spec:
  replicas: 2
  selector: {matchLabels: {app: cascading}}
  template:
    metadata: {labels: {app: cascading}}
    spec: {containers: [{name: app, image: app:v1}]}
`
	if _, err := c.KubectlStdin(t, objects, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unprotect(t, "-n", ns, "deployment/always", "clone/cascading") })

	waitRefused(t, "delete", "-n", ns, "deployment", "always")
	msg := refused(t, "delete", "-n", ns, "deployment", "always")
	mustContain(t, msg, `deployments.apps "always" is forbidden: `+openKruisePrefix+"Always: ", "remove the label first")

	_, stderr, err := c.Kubectl(t, "delete", "-n", ns, "clone", "cascading")
	if err == nil {
		t.Fatal("the Cascading CloneSet with replicas was deleted")
	}
	if !strings.Contains(stderr, "Forbidden") && !strings.Contains(stderr, "forbidden") {
		t.Fatalf("refused, but not as forbidden: %s", stderr)
	}
	mustContain(t, stderr, `clonesets.apps.kruise.io "cascading" is forbidden: `+openKruisePrefix+"Cascading: ",
		"while spec.replicas is 2")
}
