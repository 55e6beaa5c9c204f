package imagesync

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// The lister asks kruise-apiserver's subresource for its node and decodes the core/v1
// SecretList, which the kruise clientset's scheme does not know; a refusal stays a 403.
func TestPullSecretListerReadsTheSubresource(t *testing.T) {
	const path = "/apis/apps.kruise.io/v1alpha1/nodeimages/node-a/pullsecrets"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method != http.MethodGet || r.URL.Path != path {
			w.WriteHeader(http.StatusForbidden)
			_ = json.NewEncoder(w).Encode(apierrors.NewForbidden(corev1.Resource("nodeimages/pullsecrets"), "x", errors.New("not yours")).Status())
			return
		}
		_ = json.NewEncoder(w).Encode(&corev1.SecretList{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "SecretList"},
			Items: []corev1.Secret{{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "regcred"},
				Type: corev1.SecretTypeDockerConfigJson, Data: map[string][]byte{corev1.DockerConfigJsonKey: []byte(`{"auths":{}}`)}}},
		})
	}))
	defer srv.Close()
	client, err := kruiseclient.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}

	items, err := NewPullSecretLister(client, "node-a")(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].Name != "regcred" || string(items[0].Data[corev1.DockerConfigJsonKey]) != `{"auths":{}}` {
		t.Errorf("got %+v", items)
	}
	if _, err := NewPullSecretLister(client, "node-b")(context.Background()); !apierrors.IsForbidden(err) {
		t.Errorf("another node's: got %v, want 403 Forbidden", err)
	}
}

// One request per pass, whatever the number of references; a secret the server did
// not serve is NotFound (the tag's note), a failed request fails every lookup.
func TestSecretsOfPass(t *testing.T) {
	calls := 0
	get := secretsOfPass(func(context.Context) ([]corev1.Secret, error) {
		calls++
		return []corev1.Secret{{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a"}}}, nil
	})
	ctx := context.Background()
	if s, err := get(ctx, "ns", "a"); err != nil || s.Name != "a" {
		t.Errorf("ns/a: %v, %v", s, err)
	}
	if _, err := get(ctx, "other", "a"); !apierrors.IsNotFound(err) {
		t.Errorf("other/a: %v, want NotFound", err)
	}
	if _, err := get(ctx, "ns", "a"); err != nil || calls != 1 {
		t.Errorf("again: %v; %d requests, want 1", err, calls)
	}

	boom := errors.New("connection refused")
	get = secretsOfPass(func(context.Context) ([]corev1.Secret, error) { return nil, boom })
	if _, err := get(ctx, "ns", "a"); !errors.Is(err, boom) {
		t.Errorf("failed request: %v", err)
	}
}
