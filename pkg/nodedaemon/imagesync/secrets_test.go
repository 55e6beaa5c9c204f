package imagesync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
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

// A tag's own pull secrets (v1beta1) are tried before its image's, and a missing one
// is noted like a missing image secret.
func TestAuthsForTriesTagSecretsFirst(t *testing.T) {
	secret := func(name, user string) corev1.Secret {
		cfg := fmt.Sprintf(`{"auths":{"reg.example.com":{"username":%q,"password":"pw"}}}`, user)
		return corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name},
			Type:       corev1.SecretTypeDockerConfigJson,
			Data:       map[string][]byte{corev1.DockerConfigJsonKey: []byte(cfg)},
		}
	}
	get := secretsOfPass(func(context.Context) ([]corev1.Secret, error) {
		return []corev1.Secret{secret("image-secret", "image-user"), secret("tag-secret", "tag-user")}, nil
	})
	w := Want{
		Ref:  "reg.example.com/app:1",
		Spec: &v1beta1.ImageSpec{PullSecrets: []v1beta1.ReferenceObject{{Namespace: "ns", Name: "image-secret"}}},
		Tag: &v1beta1.ImageTagSpec{Tag: "1", PullSecrets: []v1beta1.ReferenceObject{
			{Namespace: "ns", Name: "tag-secret"}, {Namespace: "ns", Name: "gone"}}},
	}
	auths, note, err := authsFor(context.Background(), get, w)
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, a := range auths {
		users = append(users, a.Username)
	}
	if want := []string{"tag-user", "image-user"}; !slices.Equal(users, want) {
		t.Errorf("credentials tried as %v, want %v", users, want)
	}
	if !strings.Contains(note, "ns/gone") {
		t.Errorf("note %q does not name the missing tag secret ns/gone", note)
	}
}
