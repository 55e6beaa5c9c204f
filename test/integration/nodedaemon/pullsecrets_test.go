package nodedaemon

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kruise-native/kruise-native/internal/devruntime"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagesync"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A node daemon cannot read Secrets. It reads the image pull secrets its own NodeImage
// names through nodeimages/<node>/pullsecrets, never another node's, and pulls a
// private image with them.
func TestDaemonReadsOnlyItsOwnPullSecrets(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	const self, other = imageNode, "kwok-node-1"
	createSecret(t, ns, "regcred", corev1.SecretTypeDockerConfigJson, map[string]string{
		corev1.DockerConfigJsonKey: privateRegistryConfig(t), "note": "not for nodes"})
	createSecret(t, ns, "theirs", corev1.SecretTypeDockerConfigJson, map[string]string{corev1.DockerConfigJsonKey: privateRegistryConfig(t)})
	createSecret(t, ns, "opaque", corev1.SecretTypeOpaque, map[string]string{"password": "not for nodes"})
	patchImages(t, self, map[string]any{devruntime.PrivateRegistry + "/app": map[string]any{
		"pullSecrets": []any{map[string]any{"namespace": ns, "name": "regcred"}, map[string]any{"namespace": ns, "name": "opaque"}},
		"tags":        []any{map[string]any{"tag": "v1"}},
	}})
	patchImages(t, other, map[string]any{devruntime.PrivateRegistry + "/other": map[string]any{
		"pullSecrets": []any{map[string]any{"namespace": ns, "name": "theirs"}},
		"tags":        []any{map[string]any{"tag": "v1"}},
	}})

	// Secrets directly: no, not even one its NodeImage names.
	cfg, err := clientcmd.BuildConfigFromFlags("", daemonKubeconfig(t, self))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kubernetes.NewForConfigOrDie(cfg).CoreV1().Secrets(ns).Get(ctx, "regcred", metav1.GetOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("daemon of %s getting secret %s/regcred: %v, want 403 Forbidden", self, ns, err)
	}

	// Its own node's pull secrets, with the lister the daemon runs: the image pull
	// secret, its credentials key only; not the opaque one.
	daemon := daemonKruiseClient(t, self)
	items, err := imagesync.NewPullSecretLister(daemon, self)(ctx)
	if err != nil {
		t.Fatalf("daemon of %s reading its pull secrets: %v", self, err)
	}
	if got := inNamespace(items, ns); len(got) != 1 || got[0].Name != "regcred" ||
		len(got[0].Data) != 1 || len(got[0].Data[corev1.DockerConfigJsonKey]) == 0 {
		t.Errorf("daemon of %s got pull secrets %v, want %s/regcred with only %s", self, describeSecrets(got), ns, corev1.DockerConfigJsonKey)
	}

	// Another node's: 403, though RBAC allows nodeimages/pullsecrets.
	if _, err := imagesync.NewPullSecretLister(daemon, other)(ctx); !apierrors.IsForbidden(err) {
		t.Errorf("daemon of %s reading the pull secrets of %s: %v, want 403 Forbidden", self, other, err)
	} else if !strings.Contains(err.Error(), "may only read the pull secrets of NodeImage "+self) {
		t.Errorf("403 without a clear reason: %v", err)
	}
	// An administrator is governed by RBAC only.
	items, err = imagesync.NewPullSecretLister(kruise(t), other)(ctx)
	if got := inNamespace(items, ns); err != nil || len(got) != 1 || got[0].Name != "theirs" {
		t.Errorf("administrator reading the pull secrets of %s: %v, %v; want %s/theirs", other, describeSecrets(got), err, ns)
	}

	// Served like any other endpoint: in protobuf too, and in the OpenAPI documents
	// (kubectl explain and server-side apply of the whole group depend on them).
	pb := rest.CopyConfig(c.Config)
	pb.AcceptContentTypes, pb.ContentType = "application/vnd.kubernetes.protobuf", "application/vnd.kubernetes.protobuf"
	items, err = imagesync.NewPullSecretLister(kruiseclient.NewForConfigOrDie(pb), self)(ctx)
	if got := inNamespace(items, ns); err != nil || len(got) != 1 || got[0].Name != "regcred" {
		t.Errorf("pull secrets of %s in protobuf: %v, %v; want %s/regcred", self, describeSecrets(got), err, ns)
	}
	doc, err := c.Client.Discovery().RESTClient().Get().AbsPath("/openapi/v3/apis/apps.kruise.io/v1alpha1").DoRaw(ctx)
	if err != nil || !strings.Contains(string(doc), `"/apis/apps.kruise.io/v1alpha1/nodeimages/{name}/pullsecrets"`) {
		t.Errorf("OpenAPI v3 of apps.kruise.io/v1alpha1 lacks nodeimages/{name}/pullsecrets (err %v)", err)
	}

	// The daemon pulled the private image with regcred's credentials (the registry
	// refuses anonymous pulls) and notes the secret it could not use.
	_, st := waitTag(t, self, devruntime.PrivateRegistry+"/app", "v1", time.Minute, func(st *v1alpha1.ImageTagStatus) bool {
		return st.Phase == v1alpha1.ImagePhaseSucceeded || st.Phase == v1alpha1.ImagePhaseFailed
	})
	if st.Phase != v1alpha1.ImagePhaseSucceeded {
		t.Errorf("private image on %s: %s, want Succeeded", self, describe(st))
	}
	if want := "pull secret " + ns + "/opaque not found or not an image pull secret"; !strings.Contains(st.Message, want) ||
		strings.Contains(st.Message, "regcred") {
		t.Errorf("private image message %q: want %q and nothing about regcred", st.Message, want)
	}
}

func createSecret(t *testing.T, ns, name string, typ corev1.SecretType, data map[string]string) {
	t.Helper()
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Type: typ, StringData: data}
	if _, err := framework.Get(t).Client.CoreV1().Secrets(ns).Create(context.Background(), s, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// privateRegistryConfig is a dockerconfigjson with the credentials the daemons' fake
// runtime accepts for devruntime.PrivateRegistry.
func privateRegistryConfig(t *testing.T) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"auths": map[string]any{devruntime.PrivateRegistry: map[string]string{
		"username": devruntime.PrivateUsername, "password": devruntime.PrivatePassword}}})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func inNamespace(items []corev1.Secret, ns string) []corev1.Secret {
	var out []corev1.Secret
	for _, s := range items {
		if s.Namespace == ns {
			out = append(out, s)
		}
	}
	return out
}

func describeSecrets(items []corev1.Secret) []string {
	var out []string
	for _, s := range items {
		keys := make([]string, 0, len(s.Data))
		for k := range s.Data {
			keys = append(keys, k)
		}
		out = append(out, s.Namespace+"/"+s.Name+" "+string(s.Type)+" "+strings.Join(keys, ","))
	}
	return out
}
