package deletionprotection

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const unguardedMetric = "kruise_deletion_protection_unguarded_deletes_total"

func unguarded(t *testing.T, kind string) float64 {
	return framework.Get(t).Metrics(t, "kruise-controller", unguardedMetric)[`{kind="`+kind+`"}`]
}

// failedOpen is how many calls to the webhook kube-apiserver let through because they
// failed (failurePolicy Ignore).
func failedOpen(t *testing.T, webhook string) float64 {
	return framework.Get(t).KubeAPIServerMetricSum(t, "apiserver_admission_webhook_fail_open_count", `name="`+webhook+`"`)
}

// While kruise-apiserver is down every webhook behaves as documented (README.md,
// "Webhooks while kruise-apiserver is down"):
//   - deletion protection fails open: an Always Deployment and a Cascading one with
//     replicas delete, and kruise-controller counts each miss (metric, Warning event
//     UnguardedDeletion), but not a deletion the rule allows;
//   - the pod webhook (failurePolicy Ignore in `make up`) lets pods be created, without
//     what it would have added.
//
// kruise-apiserver is started again at the end, so the stack is whole for what follows.
func TestKruiseAPIServerDown(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	deploy := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: guarded
  labels: {policy.kruise.io/delete-protection: Always}
spec:
  replicas: 1
  selector: {matchLabels: {app: guarded}}
  template:
    metadata: {labels: {app: guarded}}
    spec: {containers: [{name: app, image: app:v1}]}
`
	if _, err := c.KubectlStdin(t, deploy, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unprotect(t, "-n", ns, "deployment/guarded") })
	// and one Cascading with replicas: its miss is counted too.
	cascading := strings.NewReplacer("guarded", "cascading", "Always", "Cascading", "replicas: 1", "replicas: 2").Replace(deploy)
	if _, err := c.KubectlStdin(t, cascading, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unprotect(t, "-n", ns, "deployment/cascading") })
	waitRefused(t, "delete", "-n", ns, "deployment", "guarded")
	waitRefused(t, "delete", "-n", ns, "deployment", "cascading")
	before := unguarded(t, "Deployment")
	// A guarded deletion is not a miss: the refusal above left the count alone, and a
	// Cascading Deployment scaled to 0 deletes without being counted.
	zero := strings.NewReplacer("guarded", "scaled-down", "Always", "Cascading", "replicas: 1", "replicas: 0").Replace(deploy)
	if _, err := c.KubectlStdin(t, zero, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	kubectl(t, "delete", "-n", ns, "deployment", "scaled-down")

	deletionFailedOpen, podsFailedOpen := failedOpen(t, "deletion.validate.kruise-native.io"), failedOpen(t, "pods.mutate.kruise-native.io")
	c.StopKruiseAPIServer(t)
	restarted := false
	t.Cleanup(func() {
		if !restarted {
			c.StartKruiseAPIServer(t)
		}
	})

	// Deletion protection fails open, and the miss is counted, logged and recorded.
	for _, name := range []string{"guarded", "cascading"} {
		kubectl(t, "delete", "-n", ns, "deployment", name, "--wait=false")
		framework.WaitFor(t, time.Minute, func() (bool, error) {
			_, err := c.Client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
			return apierrors.IsNotFound(err), nil
		})
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		return unguarded(t, "Deployment") == before+2, nil
	})
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		events, err := c.Client.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "reason=UnguardedDeletion"})
		if err != nil || len(events.Items) < 2 {
			return false, err
		}
		want := map[string]string{
			"guarded":   "policy.kruise.io/delete-protection=Always: the label forbids deleting it",
			"cascading": "policy.kruise.io/delete-protection=Cascading: the label forbids deleting it while spec.replicas is 2",
		}
		for _, e := range events.Items {
			if e.Type != corev1.EventTypeWarning || !strings.Contains(e.Message, want[e.InvolvedObject.Name]) {
				t.Fatalf("event %+v", e)
			}
			delete(want, e.InvolvedObject.Name)
		}
		return len(want) == 0, nil
	})

	// The pod webhook (failurePolicy Ignore) lets pods be created. This one asks for
	// launch priority, so kube-apiserver calls the webhook for it (a pod no handler
	// would change is not sent at all).
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "while-down",
		Annotations: map[string]string{pub.ContainerLaunchPriorityKey: pub.ContainerLaunchOrdered}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app:v1"}, {Name: "side", Image: "side:v1"}}}}
	if _, err := c.Client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("pod create while kruise-apiserver is down: %v", err)
	}
	// Both went through because their webhook failed open, not because it was not called.
	if got := failedOpen(t, "deletion.validate.kruise-native.io"); got < deletionFailedOpen+2 {
		t.Errorf("deletion webhook failed open %v times while down, want 2", got-deletionFailedOpen)
	}
	if got := failedOpen(t, "pods.mutate.kruise-native.io"); got < podsFailedOpen+1 {
		t.Errorf("pod webhook failed open %v times while down, want 1", got-podsFailedOpen)
	}

	c.StartKruiseAPIServer(t)
	restarted = true
	// Back: protection is enforced again, and the count is where it was.
	again := strings.Replace(deploy, "guarded", "guarded-again", -1)
	if _, err := c.KubectlStdin(t, again, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unprotect(t, "-n", ns, "deployment/guarded-again") })
	waitRefused(t, "delete", "-n", ns, "deployment", "guarded-again")
	refused(t, "delete", "-n", ns, "deployment", "guarded-again")
	if got := unguarded(t, "Deployment"); got != before+2 {
		t.Errorf("%s{kind=Deployment} = %v, want %v", unguardedMetric, got, before+2)
	}
}
