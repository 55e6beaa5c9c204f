package deletionprotection

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// deletion-protection.yaml, applied unchanged: the Cascading Namespace cannot be
// deleted while the Deployment's pod runs (on a kwok node), the Always Deployment
// cannot be deleted at all; without the labels both go, and the namespace deletion
// completes.
func TestExampleDeletionProtection(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	f := examplePath(t, "deletion-protection.yaml")
	nsMisses, deployMisses := unguarded(t, "Namespace"), unguarded(t, "Deployment")
	kubectl(t, "apply", "-f", f)
	t.Cleanup(func() {
		unprotect(t, "-n", "protected-ns", "deployment/protected-deploy")
		unprotect(t, "namespace/protected-ns")
		_, _, _ = c.Kubectl(t, "delete", "--ignore-not-found", "--wait=false", "-f", f)
	})

	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		pods, err := c.Client.CoreV1().Pods("protected-ns").List(ctx, metav1.ListOptions{LabelSelector: "app=protected"})
		if err != nil {
			return false, err
		}
		for _, p := range pods.Items {
			if p.Spec.NodeName != "" && p.Status.Phase == corev1.PodRunning {
				return true, nil
			}
		}
		return false, nil
	})

	waitRefused(t, "delete", "-n", "protected-ns", "deployment", "protected-deploy")
	msg := refused(t, "delete", "-n", "protected-ns", "deployment", "protected-deploy")
	mustContain(t, msg, `deployments.apps "protected-deploy" is forbidden`, "forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always: the label forbids deleting it")
	msg = refused(t, "delete", "namespace", "protected-ns")
	mustContain(t, msg, `namespaces "protected-ns" is forbidden`, "forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading: the label forbids deleting it while it has 1 active pod(s)")
	ns, err := c.Client.CoreV1().Namespaces().Get(ctx, "protected-ns", metav1.GetOptions{})
	if err != nil || ns.DeletionTimestamp != nil {
		t.Fatalf("namespace after the refused delete: %v, %v", ns, err)
	}
	if _, err := c.Client.AppsV1().Deployments("protected-ns").Get(ctx, "protected-deploy", metav1.GetOptions{}); err != nil {
		t.Fatalf("Deployment after the refused delete: %v", err)
	}

	// Without its label the Deployment may go (a server-side dry run goes through the
	// webhook too); the namespace, with its pod still there, stays protected.
	kubectl(t, "label", "-n", "protected-ns", "deployment/protected-deploy", label+"-")
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, _, err := c.Kubectl(t, "delete", "-n", "protected-ns", "deployment", "protected-deploy", "--dry-run=server")
		return err == nil, err
	})
	refused(t, "delete", "namespace", "protected-ns")

	// Without its label the namespace goes, pod, Deployment and all.
	kubectl(t, "label", "namespace/protected-ns", label+"-")
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, _, err := c.Kubectl(t, "delete", "namespace", "protected-ns", "--wait=false")
		return err == nil, err
	})
	namespaceGone(t, "protected-ns", 3*time.Minute)

	// Lifting the protection by removing the label is not a miss.
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		n, d := unguarded(t, "Namespace"), unguarded(t, "Deployment")
		return n == nsMisses && d == deployMisses, fmt.Sprintf("unguarded deletes: Namespace %v (was %v), Deployment %v (was %v)",
			n, nsMisses, d, deployMisses)
	})
}

// Removing the label and deleting right after (as a script does) is protection lifted
// on purpose: kruise-controller, whose watch reports the label's removal as the
// object leaving it, tells the two apart and counts nothing.
func TestUnlabelThenDeleteIsNotCounted(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	deploy := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: lifted
  labels: {policy.kruise.io/delete-protection: Always}
spec:
  replicas: 1
  selector: {matchLabels: {app: lifted}}
  template:
    metadata: {labels: {app: lifted}}
    spec: {containers: [{name: app, image: app:v1}]}
`
	if _, err := c.KubectlStdin(t, deploy, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	waitRefused(t, "delete", "-n", ns, "deployment", "lifted")
	before := unguarded(t, "Deployment")
	kubectl(t, "label", "-n", ns, "deployment/lifted", label+"-")
	kubectl(t, "delete", "-n", ns, "deployment", "lifted")
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		got := unguarded(t, "Deployment")
		return got == before, fmt.Sprintf("unguarded Deployment deletes %v, was %v", got, before)
	})
}
