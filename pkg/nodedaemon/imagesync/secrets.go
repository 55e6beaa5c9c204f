package imagesync

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

// SecretGetter reads one secret (the daemon may get secrets, not list or watch them:
// it reads only those a NodeImage names, when a pull starts).
type SecretGetter func(ctx context.Context, namespace, name string) (*corev1.Secret, error)

// authsFor returns the credentials of w's pull secrets for its image, and a note for
// the tag's status when a secret could not be used. A missing or unreadable secret does
// not fail the pull: the image may be public, or another secret may match, and the note
// tells the user why a private pull failed.
func authsFor(ctx context.Context, get SecretGetter, w Want) ([]*runtimeapi.AuthConfig, string, error) {
	var (
		secrets []*corev1.Secret
		notes   []string
	)
	for _, ref := range w.Spec.PullSecrets {
		if ref.Namespace == "" || ref.Name == "" {
			notes = append(notes, fmt.Sprintf("pull secret %q is not namespace/name, pulling without it", refString(ref)))
			continue
		}
		s, err := get(ctx, ref.Namespace, ref.Name)
		switch {
		case apierrors.IsNotFound(err):
			notes = append(notes, fmt.Sprintf("pull secret %s not found, pulling without it", refString(ref)))
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

func refString(r v1alpha1.ReferenceObject) string { return r.Namespace + "/" + r.Name }
