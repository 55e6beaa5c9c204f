package deletionprotection

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const protectedServiceAndIngress = `apiVersion: v1
kind: Service
metadata:
  name: web
  labels: {policy.kruise.io/delete-protection: Always}
spec:
  selector: {app: web}
  ports: [{port: 80}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  labels: {policy.kruise.io/delete-protection: Always}
spec:
  defaultBackend: {service: {name: web, port: {number: 80}}}
---
apiVersion: v1
kind: Service
metadata:
  name: cascading
  labels: {policy.kruise.io/delete-protection: Cascading}
spec:
  selector: {app: web}
  ports: [{port: 80}]
`

// Services and Ingresses labelled Always cannot be deleted (OpenKruise v1.8+), through
// the same deletion webhook as the other built-in kinds; Cascading asks nothing of
// them (they have no children), and without the label they go.
func TestProtectedServiceAndIngress(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	if _, err := c.KubectlStdin(t, protectedServiceAndIngress, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		unprotect(t, "-n", ns, "service/web", "ingress/web")
	})

	waitRefused(t, "delete", "-n", ns, "service", "web")
	msg := refused(t, "delete", "-n", ns, "service", "web")
	mustContain(t, msg, `services "web" is forbidden`, "policy.kruise.io/delete-protection=Always")
	waitRefused(t, "delete", "-n", ns, "ingress", "web")
	msg = refused(t, "delete", "-n", ns, "ingress", "web")
	mustContain(t, msg, `ingresses.networking.k8s.io "web" is forbidden`, "policy.kruise.io/delete-protection=Always")
	if _, err := c.Client.CoreV1().Services(ns).Get(ctx, "web", metav1.GetOptions{}); err != nil {
		t.Fatalf("Service after the refused delete: %v", err)
	}
	if _, err := c.Client.NetworkingV1().Ingresses(ns).Get(ctx, "web", metav1.GetOptions{}); err != nil {
		t.Fatalf("Ingress after the refused delete: %v", err)
	}

	// Cascading: no children to wait for.
	kubectl(t, "delete", "-n", ns, "service", "cascading")

	// Without the label both go.
	kubectl(t, "label", "-n", ns, "service/web", "ingress/web", label+"-")
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, _, err := c.Kubectl(t, "delete", "-n", ns, "ingress", "web")
		return err == nil, nil
	})
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, _, err := c.Kubectl(t, "delete", "-n", ns, "service", "web")
		return err == nil, nil
	})
}
