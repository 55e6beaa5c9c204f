package resourcedistribution

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A Secret distributed by name (includedNamespaces): an included namespace that does
// not exist yet is reported NamespaceNotExists and gets its copy once it is created;
// stringData arrives as data.
func TestSecretToIncludedNamespaces(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseclient.NewForConfigOrDie(c.Config)
	present := c.CreateNamespace(t)
	absent := present + "-later"
	manifest := fmt.Sprintf(`apiVersion: apps.kruise.io/v1beta1
kind: ResourceDistribution
metadata:
  name: pull-secret
spec:
  resource:
    apiVersion: v1
    kind: Secret
    metadata:
      name: registry-pull
    type: Opaque
    stringData:
      token: s3cr3t
  targets:
    includedNamespaces:
      list:
      - name: %s
      - name: %s
`, present, absent)
	if _, err := c.KubectlStdin(t, manifest, "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _, _ = c.Kubectl(t, "delete", "distributor", "pull-secret", "--ignore-not-found")
		_ = c.Client.CoreV1().Namespaces().Delete(ctx, absent, metav1.DeleteOptions{})
	})

	waitSecret := func(ns string) {
		t.Helper()
		framework.WaitFor(t, waitForCopies, func() (bool, error) {
			s, err := c.Client.CoreV1().Secrets(ns).Get(ctx, "registry-pull", metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			if string(s.Data["token"]) != "s3cr3t" || s.Type != corev1.SecretTypeOpaque {
				return false, fmt.Errorf("secret %s/registry-pull: type %s data %v", ns, s.Type, s.Data)
			}
			return true, nil
		})
	}
	waitSecret(present)
	framework.WaitFor(t, waitForCopies, func() (bool, error) {
		rd, err := kc.AppsV1alpha1().ResourceDistributions().Get(ctx, "pull-secret", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		cond := condition(rd, v1alpha1.ResourceDistributionNamespaceNotExists)
		if rd.Status.Desired != 2 || rd.Status.Succeeded != 1 || cond == nil || cond.Status != v1alpha1.ResourceDistributionConditionTrue ||
			len(cond.FailedNamespaces) != 1 || cond.FailedNamespaces[0] != absent {
			return false, fmt.Errorf("status %+v, want desired 2, succeeded 1, %s not existing", rd.Status, absent)
		}
		return true, nil
	})

	if _, err := c.Client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: absent}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitSecret(absent)
	framework.WaitFor(t, waitForCopies, func() (bool, error) {
		rd, err := kc.AppsV1alpha1().ResourceDistributions().Get(ctx, "pull-secret", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if s := rd.Status; s.Desired != 2 || s.Succeeded != 2 || s.Failed != 0 {
			return false, fmt.Errorf("status %+v, want 2 of 2", s)
		}
		return true, nil
	})

	// kind and name are immutable: the copies would be orphaned otherwise.
	renamed := strings.Replace(manifest, "name: registry-pull", "name: other-name", 1)
	_, err := c.KubectlStdin(t, renamed, "apply", "-f", "-")
	if err == nil || !strings.Contains(err.Error(), "spec.resource.metadata.name") {
		t.Errorf("renaming the resource: %v, want refused at spec.resource.metadata.name", err)
	}
	if _, err := c.Client.CoreV1().Secrets(present).Get(ctx, "other-name", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("a copy under the refused name exists (get: %v)", err)
	}
}
