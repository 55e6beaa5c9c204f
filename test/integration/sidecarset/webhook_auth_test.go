package sidecarset

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/util/uuid"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The Pod webhook answers kube-apiserver only: its patch carries the contents of the
// SidecarSets that select a pod. A caller without credentials and one with a valid
// token of another user (a ServiceAccount bound to `edit`) are refused with 401/403
// and get no patch; pods created through kube-apiserver still get the sidecar.
func TestPodWebhookRefusesOtherCallers(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	secret := "s3cret-" + rand.String(8)
	labels := map[string]string{"app": "webhook-auth"}
	name := "webhook-auth-" + rand.String(5)
	applySidecarSet(t, fmt.Sprintf(`
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: %s}
spec:
  namespace: %s
  selector: {matchLabels: {app: webhook-auth}}
  containers:
  - name: proxy
    image: envoy
    env: [{name: UPSTREAM_TOKEN, value: %s}]`, name, ns, secret), ns,
		kwokPod("probe", labels, corev1.Container{Name: "app", Image: "app"}))

	review := admissionReview(t, ns, kwokPod("victim", labels, corev1.Container{Name: "app", Image: "app"}))
	url := fmt.Sprintf("https://127.0.0.1:%d%s", c.Ports["kruise-apiserver"], podwebhook.MutatePath)
	client := kruiseAPIServerClient(t, c)

	t.Run("no credentials", func(t *testing.T) {
		expectRefused(t, client, url, review, "", secret, http.StatusUnauthorized, http.StatusForbidden)
	})
	t.Run("edit ServiceAccount token", func(t *testing.T) {
		// A valid identity: authenticated, then denied by authorization.
		expectRefused(t, client, url, review, editorToken(t, c, ns), secret, http.StatusForbidden)
	})

	// kube-apiserver, presenting its webhook client certificate, still gets the patch.
	pod, err := c.Client.CoreV1().Pods(ns).Create(ctx, kwokPod("real", labels, corev1.Container{Name: "app", Image: "app"}),
		metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pod.Spec.Containers) != 2 || pod.Spec.Containers[0].Name != "proxy" {
		t.Fatalf("pod created through kube-apiserver: containers %v, want proxy injected", names(pod.Spec.Containers))
	}
	if e := envOf(pod.Spec.Containers[0], "UPSTREAM_TOKEN"); e == nil || e.Value != secret {
		t.Errorf("injected env = %v, want UPSTREAM_TOKEN from the SidecarSet", pod.Spec.Containers[0].Env)
	}
}

// expectRefused POSTs review to url (with a bearer token when given) and requires one
// of the statuses and a body holding neither a patch nor the secret.
func expectRefused(t *testing.T, client *http.Client, url string, review []byte, token, secret string, statuses ...int) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(review))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(statuses, resp.StatusCode) {
		t.Errorf("status %d, want one of %v; body: %.300s", resp.StatusCode, statuses, body)
	}
	if strings.Contains(string(body), secret) {
		t.Errorf("the answer reveals the SidecarSet's env value: %.300s", body)
	}
	var got admissionv1.AdmissionReview
	if json.Unmarshal(body, &got) == nil && got.Response != nil && len(got.Response.Patch) > 0 {
		t.Errorf("the answer carries a patch: %s", got.Response.Patch)
	}
	t.Logf("%d: %.200s", resp.StatusCode, bytes.TrimSpace(body))
}

// admissionReview is the body kube-apiserver would send for creating pod in ns.
func admissionReview(t *testing.T, ns string, pod *corev1.Pod) []byte {
	t.Helper()
	pod = pod.DeepCopy()
	pod.Namespace = ns
	raw, err := json.Marshal(pod)
	if err != nil {
		t.Fatal(err)
	}
	review := admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{
			UID:       uuid.NewUUID(),
			Kind:      metav1.GroupVersionKind{Version: "v1", Kind: "Pod"},
			Resource:  metav1.GroupVersionResource{Version: "v1", Resource: "pods"},
			Name:      pod.Name,
			Namespace: ns,
			Operation: admissionv1.Create,
			Object:    runtime.RawExtension{Raw: raw},
		},
	}
	b, err := json.Marshal(review)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// kruiseAPIServerClient trusts kruise-apiserver's serving CA and presents no
// certificate: whatever identifies a caller is added per request.
func kruiseAPIServerClient(t *testing.T, c *framework.Cluster) *http.Client {
	t.Helper()
	ca, err := os.ReadFile(filepath.Join(c.LocalDir, "pki", "kruise-ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		t.Fatal("no certificate in kruise-ca.crt")
	}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
}

// editorToken returns a token of a ServiceAccount bound to `edit` in ns: a valid user
// of the cluster, just not kube-apiserver.
func editorToken(t *testing.T, c *framework.Cluster, ns string) string {
	t.Helper()
	ctx := context.Background()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "editor"}}
	if _, err := c.Client.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "editor-edit"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "edit"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "editor", Namespace: ns}},
	}
	if _, err := c.Client.RbacV1().RoleBindings(ns).Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	tr, err := c.Client.CoreV1().ServiceAccounts(ns).CreateToken(ctx, "editor", &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr.Status.Token
}
