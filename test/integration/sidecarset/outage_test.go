package sidecarset

import (
	"context"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const (
	webhookConfig = "kruise-pod-webhook"
	webhookName   = "pods.mutate.kruise-native.io"
	optOutLabel   = "kruise-native.io/pod-webhook"
)

// setFailurePolicy sets the Pod webhook's failurePolicy and waits until kube-apiserver
// applies it: a dry-run pod create (which calls the webhook) must fail with Fail and
// pass with Ignore, kruise-apiserver being down.
func setFailurePolicy(t *testing.T, ns string, policy admissionregistrationv1.FailurePolicyType) {
	t.Helper()
	c := framework.Get(t)
	ctx := context.Background()
	patch := `[{"op":"replace","path":"/webhooks/0/failurePolicy","value":"` + string(policy) + `"}]`
	if _, err := c.Client.AdmissionregistrationV1().MutatingWebhookConfigurations().Patch(ctx, webhookConfig,
		types.JSONPatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	probe := kwokPod("probe", map[string]string{"app": "outage"}, corev1.Container{Name: "app", Image: "app"})
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		_, err := c.Client.CoreV1().Pods(ns).Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return (err != nil) == (policy == admissionregistrationv1.Fail), nil
	})
}

// With kruise-apiserver unreachable: a pod outside the webhook's scope (opted-out
// namespace or pod) is created normally whatever the failurePolicy; a pod within it is
// created without its sidecar under Ignore and refused, naming the webhook, under Fail.
func TestWebhookOutage(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	optedOut := c.CreateNamespace(t)
	if _, err := c.Client.CoreV1().Namespaces().Patch(ctx, optedOut, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"`+optOutLabel+`":"disabled"}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{"app": "outage"}
	applySidecarSet(t, `
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: outage}
spec:
  selector: {matchLabels: {app: outage}}
  containers: [{name: outage-sidecar, image: busybox}]`, ns, kwokPod("probe", labels, corev1.Container{Name: "app", Image: "app"}))

	c.StopKruiseAPIServer(t)
	running := false
	t.Cleanup(func() {
		setFailurePolicy(t, ns, admissionregistrationv1.Ignore)
		if !running {
			c.StartKruiseAPIServer(t)
		}
	})
	create := func(ns, name string, podLabels map[string]string) (*corev1.Pod, error) {
		return c.Client.CoreV1().Pods(ns).Create(ctx, kwokPod(name, podLabels, corev1.Container{Name: "app", Image: "app"}), metav1.CreateOptions{})
	}
	optOutLabels := map[string]string{"app": "outage", optOutLabel: "disabled"}

	// Ignore (the default): created, without the sidecar.
	missed, err := create(ns, "missed", labels)
	if err != nil {
		t.Fatalf("Ignore: want the pod created, got %v", err)
	}
	if len(missed.Spec.Containers) != 1 || len(sidecarset.InjectedList(missed)) != 0 {
		t.Errorf("Ignore: containers %v, injected %v; want the pod as written", names(missed.Spec.Containers), sidecarset.InjectedList(missed))
	}
	// ...and the miss is visible: the SidecarSet controller records it on the pod.
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		events, err := c.Client.CoreV1().Events(ns).List(ctx, metav1.ListOptions{
			FieldSelector: "involvedObject.name=missed,reason=SidecarSetNotInjected"})
		if err != nil {
			return false, err
		}
		for _, e := range events.Items {
			if strings.Contains(e.Message, "SidecarSet outage selects this pod") {
				return true, nil
			}
		}
		return false, nil
	})

	// Fail: refused in scope, naming the webhook; out of scope as usual.
	setFailurePolicy(t, ns, admissionregistrationv1.Fail)
	if _, err := create(ns, "refused", labels); err == nil || !strings.Contains(err.Error(), webhookName) {
		t.Errorf("Fail: want the pod refused by %s, got %v", webhookName, err)
	}
	if _, err := create(optedOut, "other-namespace", labels); err != nil {
		t.Errorf("Fail, opted-out namespace: want the pod created, got %v", err)
	}
	if _, err := create(ns, "opted-out-pod", optOutLabels); err != nil {
		t.Errorf("Fail, opted-out pod: want the pod created, got %v", err)
	}

	// Back up: pods are injected again.
	setFailurePolicy(t, ns, admissionregistrationv1.Ignore)
	c.StartKruiseAPIServer(t)
	running = true
	waitInjected(t, ns, kwokPod("probe", labels, corev1.Container{Name: "app", Image: "app"}), "outage")
	injected, err := create(ns, "injected", labels)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(injected.Spec.Containers); len(got) != 2 || got[0] != "outage-sidecar" {
		t.Errorf("after the outage: containers %v, want outage-sidecar injected", got)
	}
	if injected.Annotations[pub.SidecarSetListAnnotation] != "outage" {
		t.Errorf("injected list = %q", injected.Annotations[pub.SidecarSetListAnnotation])
	}
}
