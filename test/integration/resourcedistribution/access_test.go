package resourcedistribution

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	rdcontract "github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// distributorSA sets up a ServiceAccount that may create and change ResourceDistributions
// (a ClusterRole) and may write Secrets in its own namespace only, and returns its user
// name and a client that impersonates it against the stack's kube-apiserver (whose
// impersonation adds the ServiceAccount's groups, as its token would).
func distributorSA(t *testing.T, home string) (string, kruiseclient.Interface, kubernetes.Interface) {
	t.Helper()
	c := framework.Get(t)
	ctx := context.Background()
	const sa = "distributor"
	if _, err := c.Client.CoreV1().ServiceAccounts(home).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: sa}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	userName := "system:serviceaccount:" + home + ":" + sa
	subject := []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: home}}
	rbac := c.Client.RbacV1()
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: home + "-rd-writer"}, Rules: []rbacv1.PolicyRule{{
		APIGroups: []string{"apps.kruise.io"}, Resources: []string{"resourcedistributions"},
		Verbs: []string{"get", "list", "watch", "create", "update", "patch", "delete"},
	}}}
	if _, err := rbac.ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: role.Name}, Subjects: subject,
		RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name}}
	if _, err := rbac.ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = rbac.ClusterRoleBindings().Delete(ctx, binding.Name, metav1.DeleteOptions{})
		_ = rbac.ClusterRoles().Delete(ctx, role.Name, metav1.DeleteOptions{})
	})
	grantSecrets(t, home, subject)

	cfg := rest.CopyConfig(c.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: userName}
	kc, err := kruiseclient.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// RBAC is read from kube-apiserver's caches: wait until it answers as granted.
	waitAllowed(t, kube, &authorizationv1.ResourceAttributes{Group: "apps.kruise.io", Resource: "resourcedistributions", Verb: "create"})
	waitAllowed(t, kube, &authorizationv1.ResourceAttributes{Namespace: home, Resource: "secrets", Verb: "create"})
	return userName, kc, kube
}

// grantSecrets lets subject create and update Secrets in ns (a Role and RoleBinding,
// deleted with the namespace).
func grantSecrets(t *testing.T, ns string, subject []rbacv1.Subject) {
	t.Helper()
	ctx := context.Background()
	rbac := framework.Get(t).Client.RbacV1()
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "secret-writer"}, Rules: []rbacv1.PolicyRule{{
		APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "create", "update"},
	}}}
	if _, err := rbac.Roles(ns).Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := rbac.RoleBindings(ns).Create(ctx, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "secret-writer"}, Subjects: subject,
		RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: role.Name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func waitAllowed(t *testing.T, kube kubernetes.Interface, ra *authorizationv1.ResourceAttributes) {
	t.Helper()
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		r, err := kube.AuthorizationV1().SelfSubjectAccessReviews().Create(context.Background(),
			&authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{ResourceAttributes: ra}}, metav1.CreateOptions{})
		if err != nil {
			return false, err
		}
		if !r.Status.Allowed {
			return false, fmt.Errorf("not yet allowed %+v", *ra)
		}
		return true, nil
	})
}

func secretDistribution(name string, targets string) string {
	return fmt.Sprintf(`apiVersion: apps.kruise.io/v1alpha1
kind: ResourceDistribution
metadata:
  name: %s
  annotations:
    %s: '{"username":"system:admin","groups":["system:masters"]}'
spec:
  resource:
    apiVersion: v1
    kind: Secret
    metadata:
      name: planted
    type: Opaque
    stringData:
      password: s3cr3t
  targets:
%s`, name, rdcontract.DistributorAnnotation, targets)
}

func included(nss ...string) string {
	out := "    includedNamespaces:\n      list:\n"
	for _, ns := range nss {
		out += "      - name: " + ns + "\n"
	}
	return out
}

// ResourceDistribution is no privilege escalation: a ServiceAccount allowed to create
// ResourceDistributions, and to write Secrets in its own namespace only, cannot make a
// distribution write a Secret anywhere else — not by naming the namespace (403 naming
// it), not by a selector (403 naming what it selects now), not into kruise-system
// (422), not later by a namespace that starts to match (the controller asks for the
// recorded user, skips it and reports it, and writes once the right is granted). With
// the right, it succeeds and the Secret appears. The user is recorded by the server,
// whatever the client writes into the annotation.
func TestDistributionNeedsTheWritersRights(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	admin := kruiseclient.NewForConfigOrDie(c.Config)
	home := c.CreateNamespace(t)
	foreign := c.CreateNamespace(t)
	user, _, _ := distributorSA(t, home)
	as := func(manifest string, args ...string) error {
		_, err := c.KubectlStdin(t, manifest, append(args, "--as", user)...)
		return err
	}
	refused := func(name, manifest, status string, mention ...string) {
		t.Helper()
		err := as(manifest, "create", "-f", "-")
		if err == nil {
			_, _, _ = c.Kubectl(t, "delete", "distributor", name, "--ignore-not-found")
			t.Fatalf("%s: accepted", name)
		}
		if !strings.Contains(err.Error(), status) {
			t.Errorf("%s: %v, want %s", name, err, status)
		}
		for _, m := range mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: refusal does not mention %q: %v", name, m, err)
			}
		}
		if _, getErr := admin.AppsV1alpha1().ResourceDistributions().Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(getErr) {
			t.Errorf("%s was stored (get: %v)", name, getErr)
		}
	}

	// A namespace it has no rights in: 403 naming that namespace alone (not its own).
	refused("rd-foreign", secretDistribution("rd-foreign", included(home, foreign)), "Forbidden", "namespace(s) "+foreign+" (", user)
	// The same through a selector: what it selects now is checked.
	group := "rd-access-" + home
	kubectl(t, "label", "namespace", foreign, group+"=yes")
	refused("rd-selected", secretDistribution("rd-selected", fmt.Sprintf("    namespaceLabelSelector:\n      matchLabels:\n        %s: \"yes\"\n", group)),
		"Forbidden", "namespace(s) "+foreign+" (")
	// kruise-system, named: refused whoever asks.
	refused("rd-kruise-system", secretDistribution("rd-kruise-system", included(rdcontract.SystemNamespace)),
		"is invalid", "spec.targets.includedNamespaces.list[0].name", rdcontract.SystemNamespace)
	if _, err := c.Client.CoreV1().Secrets(foreign).Get(ctx, "planted", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("a Secret was planted in %s (get: %v)", foreign, err)
	}
	if _, err := c.Client.CoreV1().Secrets(rdcontract.SystemNamespace).Get(ctx, "planted", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("a Secret was planted in %s (get: %v)", rdcontract.SystemNamespace, err)
	}

	// Where it may write: accepted, the Secret appears, and the server recorded the
	// ServiceAccount, not the forged system:admin.
	kubectl(t, "label", "namespace", home, group+"=yes")
	kubectl(t, "label", "namespace", foreign, group+"-")
	const name = "rd-own"
	if err := as(secretDistribution(name, fmt.Sprintf("    namespaceLabelSelector:\n      matchLabels:\n        %s: \"yes\"\n", group)), "create", "-f", "-"); err != nil {
		t.Fatalf("a distribution into the user's own namespace: %v", err)
	}
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "distributor", name, "--ignore-not-found") })
	rd, err := admin.AppsV1alpha1().ResourceDistributions().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d, err := rdcontract.DistributorOf(rd.Annotations); err != nil || d.Username != user || !contains(d.Groups, "system:serviceaccounts:"+home) {
		t.Errorf("recorded distributor %+v (%v), want %s with its groups", d, err, user)
	}
	waitSecret(t, home)

	// A namespace that starts to match later: the controller asks for the recorded
	// user, writes nothing there, and says so in status and by an event.
	kubectl(t, "label", "namespace", foreign, group+"=yes")
	framework.WaitFor(t, waitForCopies, func() (bool, error) {
		rd, err := admin.AppsV1alpha1().ResourceDistributions().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		cond := condition(rd, v1alpha1.ResourceDistributionCreateResourceFailed)
		if rd.Status.Desired != 2 || rd.Status.Succeeded != 1 || cond == nil || cond.Status != v1alpha1.ResourceDistributionConditionTrue ||
			len(cond.FailedNamespaces) != 1 || cond.FailedNamespaces[0] != foreign || !strings.Contains(cond.Reason, "forbidden") {
			return false, fmt.Errorf("status %+v, want %s refused (forbidden)", rd.Status, foreign)
		}
		return true, nil
	})
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		evs, err := c.Client.CoreV1().Events("").List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=" + name})
		if err != nil {
			return false, err
		}
		for _, e := range evs.Items {
			if e.Type == corev1.EventTypeWarning && strings.Contains(e.Message, foreign) && strings.Contains(e.Message, "forbidden") {
				return true, nil
			}
		}
		return false, fmt.Errorf("no Warning event naming %s among %d", foreign, len(evs.Items))
	})
	if _, err := c.Client.CoreV1().Secrets(foreign).Get(ctx, "planted", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("the controller planted a Secret in %s for a user without rights there (get: %v)", foreign, err)
	}

	// Granted the right, the user's distribution reaches it (asked again within 30 s).
	grantSecrets(t, foreign, []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "distributor", Namespace: home}})
	waitSecret(t, foreign)
}

func waitSecret(t *testing.T, ns string) {
	t.Helper()
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		s, err := framework.Get(t).Client.CoreV1().Secrets(ns).Get(context.Background(), "planted", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return string(s.Data["password"]) == "s3cr3t", nil
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// kruise-system is never written, even when a distribution of a user with every right
// selects it by label.
func TestKruiseSystemIsNeverATarget(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	label := "rd-never-" + ns
	kubectl(t, "label", "namespace", ns, label+"=yes")
	kubectl(t, "label", "namespace", rdcontract.SystemNamespace, label+"=yes")
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "label", "namespace", rdcontract.SystemNamespace, label+"-") })
	const name = "rd-never"
	manifest := strings.Replace(secretDistribution(name, fmt.Sprintf("    namespaceLabelSelector:\n      matchLabels:\n        %s: \"yes\"\n", label)),
		"planted", "never-planted", 1)
	if _, err := c.KubectlStdin(t, manifest, "create", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "distributor", name, "--ignore-not-found") })
	framework.WaitFor(t, waitForCopies, func() (bool, error) {
		_, err := c.Client.CoreV1().Secrets(ns).Get(ctx, "never-planted", metav1.GetOptions{})
		return err == nil, err
	})
	kc := kruiseclient.NewForConfigOrDie(c.Config)
	framework.WaitFor(t, waitForCopies, func() (bool, error) {
		rd, err := kc.AppsV1alpha1().ResourceDistributions().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if rd.Status.Desired != 1 || rd.Status.Succeeded != 1 {
			return false, fmt.Errorf("status %+v, want 1 of 1", rd.Status)
		}
		return true, nil
	})
	if _, err := c.Client.CoreV1().Secrets(rdcontract.SystemNamespace).Get(ctx, "never-planted", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("a copy was written into %s (get: %v)", rdcontract.SystemNamespace, err)
	}
}
