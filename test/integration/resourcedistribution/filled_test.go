package resourcedistribution

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A copy that another controller fills in — as kube-controller-manager's token
// controller fills a token Secret's data — is left as it is: the distribution wrote
// what it distributes, the rest is the other writer's. Comparing whole objects made the
// two rewrite each other's change for ever (about 20 writes a second with a real token
// Secret). Here the test plays the other controller: for 10 s it puts its key and label
// back whenever they are missing, and counts how often it had to; kruise-controller's
// own writes to Secrets are counted from its metrics, and the copy's resourceVersion
// must not move once filled in.
func TestCopyFilledInByAnotherControllerIsNotRewritten(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	const name = "filled-in"
	manifest := fmt.Sprintf(`apiVersion: apps.kruise.io/v1alpha1
kind: ResourceDistribution
metadata:
  name: %s
spec:
  resource:
    apiVersion: v1
    kind: Secret
    metadata:
      name: %s
    type: Opaque
    stringData:
      config: distributed
  targets:
    includedNamespaces:
      list:
      - name: %s
`, name, name, ns)
	if _, err := c.KubectlStdin(t, manifest, "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "distributor", name, "--ignore-not-found") })
	secrets := c.Client.CoreV1().Secrets(ns)
	framework.WaitFor(t, waitForCopies, func() (bool, error) {
		s, err := secrets.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return string(s.Data["config"]) == "distributed", nil
	})
	before := quietWrites(t)

	// fill puts the other controller's key and label on the copy if either is missing;
	// it reports whether it wrote, and the copy's resourceVersion after.
	fill := func() (bool, string) {
		s, err := secrets.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if string(s.Data["token"]) == "minted" && s.Labels["filled-by"] == "other-controller" {
			return false, s.ResourceVersion
		}
		s.Data["token"] = []byte("minted")
		if s.Labels == nil {
			s.Labels = map[string]string{}
		}
		s.Labels["filled-by"] = "other-controller"
		updated, err := secrets.Update(ctx, s, metav1.UpdateOptions{FieldManager: "other-controller"})
		if apierrors.IsConflict(err) {
			return true, "" // kruise-controller wrote it in between: a write all the same
		}
		if err != nil {
			t.Fatal(err)
		}
		return true, updated.ResourceVersion
	}
	fills := 0
	filledRV := ""
	start := time.Now()
	framework.Consistently(t, 10*time.Second, func() (bool, string) {
		wrote, rv := fill()
		if wrote {
			fills++
		}
		switch {
		case fills > 1:
			return false, fmt.Sprintf("the copy lost the other controller's key or label again: %d fills in %.1fs, "+
				"kruise-controller secret writes %v", fills, time.Since(start).Seconds(), delta(controllerWrites(t), before, "secrets PUT"))
		case filledRV == "":
			filledRV = rv
		case rv != filledRV:
			return false, fmt.Sprintf("the filled-in copy was written again: resourceVersion %s -> %s", filledRV, rv)
		}
		return true, ""
	})
	after := controllerWrites(t)
	if got := delta(after, before, "secrets PUT") + delta(after, before, "secrets POST") + delta(after, before, "secrets DELETE"); got != 0 {
		t.Errorf("kruise-controller wrote the filled-in copy %v times, want 0", got)
	}
	s, err := secrets.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if string(s.Data["config"]) != "distributed" || string(s.Data["token"]) != "minted" || s.Type != corev1.SecretTypeOpaque {
		t.Errorf("copy after the window: type %s data %v", s.Type, s.Data)
	}

	// What was distributed is still the distribution's: a changed value is put back,
	// with one write, beside the other controller's key.
	s.Data["config"] = []byte("tampered")
	if _, err := secrets.Update(ctx, s, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, waitForCopies, func() (bool, error) {
		s, err := secrets.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if string(s.Data["config"]) != "distributed" {
			return false, nil
		}
		if string(s.Data["token"]) != "minted" {
			t.Fatalf("putting back the distributed value dropped the other controller's key: %v", s.Data)
		}
		return true, nil
	})
	t.Logf("the other controller filled the copy in %d time(s) in 10 s", fills)
}
