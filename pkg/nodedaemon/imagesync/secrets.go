package imagesync

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

// PullSecretLister returns the pull secrets of the node's NodeImage as kruise-apiserver
// serves them (nodeimages/<node>/pullsecrets, see NewPullSecretLister): the image pull
// secrets the NodeImage names that exist, and nothing else. The daemon may not read
// Secrets itself, so a compromised node cannot read other nodes' credentials.
type PullSecretLister func(ctx context.Context) ([]corev1.Secret, error)

// secretGetter finds one pull secret; a secret it does not have is a NotFound error.
type secretGetter func(ctx context.Context, namespace, name string) (*corev1.Secret, error)

// secretsOfPass reads the node's pull secrets once per sync pass, when the first pull
// that names a secret starts, rather than once per reference: kruise-apiserver reads
// every secret of the NodeImage for each request.
func secretsOfPass(list PullSecretLister) secretGetter {
	var (
		read   bool
		byName map[string]*corev1.Secret
		err    error
	)
	return func(ctx context.Context, ns, name string) (*corev1.Secret, error) {
		if !read {
			var items []corev1.Secret
			items, err = list(ctx)
			read = true
			byName = make(map[string]*corev1.Secret, len(items))
			for i := range items {
				byName[items[i].Namespace+"/"+items[i].Name] = &items[i]
			}
		}
		if err != nil {
			return nil, err
		}
		if s, ok := byName[ns+"/"+name]; ok {
			return s, nil
		}
		return nil, apierrors.NewNotFound(corev1.Resource("secrets"), name)
	}
}

// authsFor returns the credentials of w's pull secrets for its image, and a note for
// the tag's status when a secret could not be used. A missing or unreadable secret does
// not fail the pull: the image may be public, or another secret may match, and the note
// tells the user why a private pull failed.
func authsFor(ctx context.Context, get secretGetter, w Want) ([]*runtimeapi.AuthConfig, string, error) {
	var (
		secrets []*corev1.Secret
		notes   []string
	)
	// The tag's own secrets first (a Kruise Native v1beta1 field; OpenKruise has
	// pull secrets on the image only), then the image's.
	refs := slices.Concat(w.Tag.PullSecrets, w.Spec.PullSecrets)
	for _, ref := range refs {
		if ref.Namespace == "" || ref.Name == "" {
			notes = append(notes, fmt.Sprintf("pull secret %q is not namespace/name, pulling without it", refString(ref)))
			continue
		}
		s, err := get(ctx, ref.Namespace, ref.Name)
		switch {
		case apierrors.IsNotFound(err):
			// kruise-apiserver serves image pull secrets only, so this is also what a
			// secret of another type looks like from here.
			notes = append(notes, fmt.Sprintf("pull secret %s not found or not an image pull secret "+
				"(kubernetes.io/dockerconfigjson, kubernetes.io/dockercfg), pulling without it", refString(ref)))
		case err != nil && ctx.Err() != nil:
			return nil, "", fmt.Errorf("reading pull secret %s: %w", refString(ref), err)
		case err != nil:
			notes = append(notes, fmt.Sprintf("cannot read pull secret %s (%v), pulling without it", refString(ref), err))
		default:
			secrets = append(secrets, s)
		}
	}
	return imagepuller.AuthsFromSecrets(w.Ref, secrets), strings.Join(notes, "; "), nil
}

func refString(r v1beta1.ReferenceObject) string { return r.Namespace + "/" + r.Name }
