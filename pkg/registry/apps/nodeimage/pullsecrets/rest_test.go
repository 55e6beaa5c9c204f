package pullsecrets

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// nodeImages is a rest.Getter over fixed NodeImages.
type nodeImages map[string]*apps.NodeImage

func (n nodeImages) Get(_ context.Context, name string, _ *metav1.GetOptions) (runtime.Object, error) {
	if ni, ok := n[name]; ok {
		return ni, nil
	}
	return nil, apierrors.NewNotFound(apps.Resource("nodeimages"), name)
}

// secrets is a SecretReader over fixed Secrets that records what it was asked for.
type secrets struct {
	items map[string]*corev1.Secret
	fail  map[string]error
	reads []string
}

func (s *secrets) read(_ context.Context, ns, name string) (*corev1.Secret, error) {
	key := ns + "/" + name
	s.reads = append(s.reads, key)
	if err := s.fail[key]; err != nil {
		return nil, err
	}
	if sec, ok := s.items[key]; ok {
		return sec.DeepCopy(), nil
	}
	return nil, apierrors.NewNotFound(corev1.Resource("secrets"), name)
}

func secret(name string, typ corev1.SecretType, data map[string]string) *corev1.Secret {
	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name), ResourceVersion: "7",
			Labels:      map[string]string{"team": "a"},
			Annotations: map[string]string{"kubectl.kubernetes.io/last-applied-configuration": "{...every key...}"}},
		Type: typ, Data: map[string][]byte{},
	}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	return s
}

func refs(names ...string) []apps.ReferenceObject {
	var out []apps.ReferenceObject
	for _, n := range names {
		ns, name, _ := strings.Cut(n, "/")
		out = append(out, apps.ReferenceObject{Namespace: ns, Name: name})
	}
	return out
}

func daemonOf(node string) user.Info {
	u := &user.DefaultInfo{Name: "system:serviceaccount:kruise-system:kruise-node-daemon"}
	if node != "" {
		u.Extra = map[string][]string{"authentication.kubernetes.io/node-name": {node}}
	}
	return u
}

func fixtures() (nodeImages, *secrets) {
	images := nodeImages{
		"node-a": {ObjectMeta: metav1.ObjectMeta{Name: "node-a"}, Spec: apps.NodeImageSpec{Images: map[string]apps.ImageSpec{
			"registry.example/app": {PullSecrets: refs("ns/json", "ns/cfg")},
			"registry.example/db":  {PullSecrets: refs("ns/json", "ns/opaque", "ns/token", "ns/missing", "/no-namespace")},
			"public":               {},
		}}},
		"node-b": {ObjectMeta: metav1.ObjectMeta{Name: "node-b"}, Spec: apps.NodeImageSpec{Images: map[string]apps.ImageSpec{
			"registry.example/app": {PullSecrets: refs("ns/json")},
		}}},
	}
	store := &secrets{items: map[string]*corev1.Secret{
		"ns/json": secret("json", corev1.SecretTypeDockerConfigJson,
			map[string]string{corev1.DockerConfigJsonKey: `{"auths":{}}`, "extra": "not for the node"}),
		"ns/cfg":    secret("cfg", corev1.SecretTypeDockercfg, map[string]string{corev1.DockerConfigKey: `{}`}),
		"ns/opaque": secret("opaque", corev1.SecretTypeOpaque, map[string]string{corev1.DockerConfigJsonKey: `{"auths":{}}`}),
		"ns/token":  secret("token", corev1.SecretTypeServiceAccountToken, map[string]string{"token": "t"}),
		// Pull secrets no NodeImage names: never read.
		"ns/unnamed":  secret("unnamed", corev1.SecretTypeDockerConfigJson, map[string]string{corev1.DockerConfigJsonKey: `{}`}),
		"other/admin": secret("admin", corev1.SecretTypeDockerConfigJson, map[string]string{corev1.DockerConfigJsonKey: `{}`}),
	}}
	return images, store
}

// Who may read which NodeImage's pull secrets: a daemon its own node's only; others
// whatever RBAC let through to the handler.
func TestGetCallerCheck(t *testing.T) {
	cases := []struct {
		name      string
		user      user.Info
		nodeImage string
		want      func(error) bool
	}{
		{"daemon reads its own node's", daemonOf("node-a"), "node-a", nil},
		{"daemon reads another node's", daemonOf("node-a"), "node-b", apierrors.IsForbidden},
		{"daemon reads a NodeImage that does not exist", daemonOf("node-a"), "node-z", apierrors.IsForbidden},
		{"daemon without a node name", daemonOf(""), "node-a", apierrors.IsForbidden},
		{"daemon of a node without a NodeImage", daemonOf("node-z"), "node-z", apierrors.IsNotFound},
		{"controller reads any node's", &user.DefaultInfo{Name: "system:serviceaccount:kruise-system:kruise-controller"}, "node-b", nil},
		{"administrator reads any node's", &user.DefaultInfo{Name: "admin", Groups: []string{"system:masters"}}, "node-a", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			images, store := fixtures()
			ctx := genericapirequest.WithUser(context.Background(), tc.user)
			_, err := NewREST(images, store.read).Get(ctx, tc.nodeImage, &metav1.GetOptions{})
			switch {
			case tc.want == nil && err != nil:
				t.Fatalf("want the pull secrets, got %v", err)
			case tc.want != nil && !tc.want(err):
				t.Fatalf("got %v", err)
			}
			if apierrors.IsForbidden(err) && len(store.reads) > 0 {
				t.Errorf("a refused caller made the server read %v", store.reads)
			}
		})
	}
}

// Only the secrets the NodeImage names, only image pull secret types, only their
// credentials key.
func TestGetServesOnlyReferencedPullSecrets(t *testing.T) {
	images, store := fixtures()
	ctx := genericapirequest.WithUser(context.Background(), daemonOf("node-a"))
	obj, err := NewREST(images, store.read).Get(ctx, "node-a", &metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	list := obj.(*corev1.SecretList)

	wantReads := []string{"ns/cfg", "ns/json", "ns/missing", "ns/opaque", "ns/token"}
	if !slices.Equal(store.reads, wantReads) {
		t.Errorf("read %v, want each referenced secret once: %v", store.reads, wantReads)
	}
	var got []string
	for _, s := range list.Items {
		got = append(got, s.Namespace+"/"+s.Name)
		if len(s.Labels) > 0 || len(s.Annotations) > 0 {
			t.Errorf("%s/%s served with labels %v, annotations %v", s.Namespace, s.Name, s.Labels, s.Annotations)
		}
		key := pullSecretKeys[s.Type]
		if len(s.Data) != 1 || s.Data[key] == nil {
			t.Errorf("%s/%s served with data keys %v, want only %s", s.Namespace, s.Name, keys(s.Data), key)
		}
		if s.ResourceVersion != "7" {
			t.Errorf("%s/%s: resourceVersion %q", s.Namespace, s.Name, s.ResourceVersion)
		}
	}
	if want := []string{"ns/cfg", "ns/json"}; !slices.Equal(got, want) {
		t.Errorf("served %v, want %v (opaque, token and missing secrets left out)", got, want)
	}
}

// A NodeImage without pull secrets serves an empty list, not null items.
func TestGetNoPullSecrets(t *testing.T) {
	store := &secrets{}
	images := nodeImages{"node-a": {ObjectMeta: metav1.ObjectMeta{Name: "node-a"}}}
	obj, err := NewREST(images, store.read).Get(context.Background(), "node-a", &metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if list := obj.(*corev1.SecretList); list.Items == nil || len(list.Items) != 0 || len(store.reads) != 0 {
		t.Errorf("items %v, reads %v; want an empty list and no reads", list.Items, store.reads)
	}
}

// kube-apiserver refusing kruise-apiserver (its RBAC) is a server error, not a 403 the
// caller would take for its own.
func TestGetReadFailureIsServerError(t *testing.T) {
	images, store := fixtures()
	store.fail = map[string]error{"ns/json": apierrors.NewForbidden(corev1.Resource("secrets"), "json", errors.New("no RBAC"))}
	_, err := NewREST(images, store.read).Get(context.Background(), "node-b", &metav1.GetOptions{})
	if !apierrors.IsInternalError(err) {
		t.Fatalf("got %v, want 500 Internal Server Error", err)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
