package sidecarset

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// callScope reads the mutating Pod webhook's call scope.
func callScope(t *testing.T) (podwebhook.CallClauses, bool) {
	return framework.Get(t).PodWebhookCallScope(t, podwebhook.Mutating)
}

// kube-apiserver calls the Pod webhook only for the creates a handler may change. A
// plain pod is skipped before the call. sidecarset.yaml applied whole (its SidecarSet
// and its pod in one kubectl apply, a few milliseconds apart) still gets the pod
// injected: the SidecarSet's admission widens the registration before the create
// returns. Deleting the SidecarSet narrows it again.
func TestPodWebhookCallScope(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, narrowed := callScope(t)
		return narrowed, nil
	})

	before := c.SkippedWebhookCalls(t, webhookName, "CREATE")
	if _, err := c.Client.CoreV1().Pods(ns).Create(ctx, kwokPod("plain", map[string]string{"app": "plain"},
		corev1.Container{Name: "app", Image: "app"}), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
		t.Fatal(err)
	}
	if after := c.SkippedWebhookCalls(t, webhookName, "CREATE"); after <= before {
		t.Errorf("a plain pod's create: kube-apiserver's skipped creates %v -> %v, want the call skipped", before, after)
	}

	// Another test's SidecarSet of the same name must be gone first.
	ss := kruiseClient(t, nil).AppsV1alpha1().SidecarSets()
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, err := ss.Get(ctx, "test-sidecarset", metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	deleteSidecarSetAtEnd(t, "test-sidecarset")
	kubectl(t, "apply", "-n", ns, "-f", filepath.Join(c.Root, "examples", "sidecarset.yaml"))
	pod, err := c.Client.CoreV1().Pods(ns).Get(ctx, "test-pod", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(pod.Spec.Containers); !slices.Equal(got, []string{"sidecar1", "app"}) {
		t.Errorf("test-pod, applied with its SidecarSet: containers %v, want sidecar1 injected", got)
	}
	if clauses, narrowed := callScope(t); !narrowed || clauses["sidecarset/test-sidecarset"] == "" {
		t.Errorf("after the SidecarSet's create: narrowed %t, clauses %v; want its clause", narrowed, clauses)
	}

	if err := ss.Delete(ctx, "test-sidecarset", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	// The caches are trusted to remove a clause 30 s after the last widening.
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		clauses, narrowed := callScope(t)
		_, found := clauses["sidecarset/test-sidecarset"]
		return narrowed && !found, nil
	})
}
