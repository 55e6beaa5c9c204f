package podwebhook

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const (
	protectedLabel  = "it.kruise-native.io/protected"
	stampAnnotation = "it.kruise-native.io/stamped"
	protectedReason = "protected by the integration test's handler"
)

// seen records what the test handlers were called for.
type seen struct {
	mu      sync.Mutex
	deletes []string
	creates map[string]string // pod name -> its stamp as the validating handler saw it
}

func (s *seen) deleted() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.deletes...)
}

func (s *seen) created(name string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	stamp, ok := s.creates[name]
	return stamp, ok
}

func decodePod(raw []byte) (*corev1.Pod, error) {
	pod := &corev1.Pod{}
	if err := json.Unmarshal(raw, pod); err != nil {
		return nil, fmt.Errorf("decoding the pod: %w", err)
	}
	return pod, nil
}

// testHandlers: at pod CREATE a mutating handler stamps the pod and a validating one
// refuses a pod without the stamp (so kube-apiserver must call them in that order);
// at pod DELETE a validating handler refuses, with 429, to delete a protected pod.
func testHandlers(s *seen) []podwebhook.Handler {
	creates := []podwebhook.Rule{{Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create}, Resource: podwebhook.Pods}}
	deletes := []podwebhook.Rule{{Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Delete}, Resource: podwebhook.Pods}}
	return []podwebhook.Handler{
		{Name: "test-stamp", Rules: creates,
			Mutate: func(_ context.Context, _ *admissionv1.AdmissionRequest, pod *corev1.Pod) error {
				if pod.Annotations == nil {
					pod.Annotations = map[string]string{}
				}
				pod.Annotations[stampAnnotation] = "true"
				return nil
			}},
		{Name: "test-require-stamp", Rules: creates,
			Validate: func(_ context.Context, req *admissionv1.AdmissionRequest) error {
				pod, err := decodePod(req.Object.Raw)
				if err != nil {
					return err
				}
				s.mu.Lock()
				s.creates[pod.Name] = pod.Annotations[stampAnnotation]
				s.mu.Unlock()
				if pod.Annotations[stampAnnotation] != "true" {
					return podwebhook.DenyWith(http.StatusForbidden, metav1.StatusReasonForbidden, "pod not stamped")
				}
				return nil
			}},
		{Name: "test-protect", Rules: deletes,
			Validate: func(_ context.Context, req *admissionv1.AdmissionRequest) error {
				pod, err := decodePod(req.OldObject.Raw)
				if err != nil {
					return err
				}
				s.mu.Lock()
				s.deletes = append(s.deletes, pod.Name)
				s.mu.Unlock()
				if pod.Labels[protectedLabel] == "true" {
					return podwebhook.DenyWith(http.StatusTooManyRequests, metav1.StatusReasonTooManyRequests,
						fmt.Sprintf("pod %s is %s", pod.Name, protectedReason))
				}
				return nil
			}},
	}
}

// serve runs the chain on https://127.0.0.1:<port> (httptest's self-signed
// certificate) until the test ends and returns its URL and CA.
func serve(t *testing.T, handlers []podwebhook.Handler) (string, []byte) {
	t.Helper()
	server, err := podwebhook.NewServer(handlers)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	for path, h := range server.Paths() {
		mux.Handle(path, h)
	}
	ts := httptest.NewUnstartedServer(mux)
	ts.StartTLS()
	t.Cleanup(ts.Close)
	if !strings.HasPrefix(ts.URL, "https://127.0.0.1:") {
		t.Fatalf("test webhook server at %s, want 127.0.0.1", ts.URL)
	}
	return ts.URL, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})
}

// register creates the configurations generated from handlers, scoped to namespace
// ns, and deletes them when the test ends (before the server stops and the namespace
// goes: kube-apiserver must not call a stopped server with failurePolicy Fail).
func register(t *testing.T, handlers []podwebhook.Handler, ns, url string, ca []byte) {
	t.Helper()
	c := framework.Get(t)
	ctx := context.Background()
	opts := podwebhook.DefaultWebhookOptions()
	opts.Name = "kruise-it-" + ns
	opts.ClientConfig.URL = &url
	opts.ClientConfig.CABundle = ca
	opts.FailurePolicy = admissionregistrationv1.Fail
	opts.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": ns}}
	mutating, validating, err := podwebhook.WebhookConfigurations(handlers, opts)
	if err != nil {
		t.Fatal(err)
	}
	if mutating == nil || validating == nil {
		t.Fatalf("want both configurations, got %v and %v", mutating, validating)
	}
	admission := c.Client.AdmissionregistrationV1()
	if _, err := admission.MutatingWebhookConfigurations().Create(ctx, mutating, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := admission.MutatingWebhookConfigurations().Delete(ctx, mutating.Name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting %s: %v", mutating.Name, err)
		}
	})
	if _, err := admission.ValidatingWebhookConfigurations().Create(ctx, validating, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := admission.ValidatingWebhookConfigurations().Delete(ctx, validating.Name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting %s: %v", validating.Name, err)
		}
	})
}

func pod(name string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app:v1"}}}}
}

// kube-apiserver calls the chain through the generated configurations: a pod create
// is stamped by the mutating handler and then checked by the validating one; deleting
// a protected pod is refused with the handler's code and message and leaves the pod;
// another pod deletes normally.
func TestChainOnPodCreateAndDelete(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	s := &seen{creates: map[string]string{}}
	handlers := testHandlers(s)
	url, ca := serve(t, handlers)
	register(t, handlers, ns, url, ca)
	pods := c.Client.CoreV1().Pods(ns)

	// kube-apiserver picks configurations up from a cache: wait until a dry-run create
	// comes back stamped, then until a dry-run delete of the protected pod is refused.
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		out, err := pods.Create(ctx, pod("probe", nil), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err == nil && out.Annotations[stampAnnotation] == "true", err
	})
	protected, err := pods.Create(ctx, pod("protected", map[string]string{protectedLabel: "true"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if protected.Annotations[stampAnnotation] != "true" {
		t.Errorf("created pod not stamped: %v", protected.Annotations)
	}
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		err := pods.Delete(ctx, "protected", metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}})
		return apierrors.IsTooManyRequests(err), nil
	})

	// Create: mutated, then validated on the mutated pod.
	if _, err := pods.Create(ctx, pod("plain", nil), metav1.CreateOptions{}); err != nil {
		t.Fatalf("create: %v", err)
	}
	if stamp, ok := s.created("plain"); !ok || stamp != "true" {
		t.Errorf("validating handler saw plain: %v, stamp %q; want it called on the stamped pod", ok, stamp)
	}

	// Delete: refused with the handler's code and message, the pod kept.
	err = pods.Delete(ctx, "protected", metav1.DeleteOptions{})
	if !apierrors.IsTooManyRequests(err) || !strings.Contains(err.Error(), "pod protected is "+protectedReason) {
		t.Fatalf("deleting the protected pod: %v; want 429 with the handler's message", err)
	}
	t.Logf("refusal as the client sees it: %v", err)
	if _, err := pods.Get(ctx, "protected", metav1.GetOptions{}); err != nil {
		t.Errorf("the protected pod after the refused delete: %v", err)
	}

	// Another pod deletes normally (after the handler saw it).
	if err := pods.Delete(ctx, "plain", metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatalf("deleting an unprotected pod: %v", err)
	}
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		_, err := pods.Get(ctx, "plain", metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	if d := s.deleted(); !contains(d, "plain") || !contains(d, "protected") {
		t.Errorf("delete handler saw %v, want plain and protected", d)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
