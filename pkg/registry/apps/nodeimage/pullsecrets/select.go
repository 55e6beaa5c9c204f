package pullsecrets

import (
	"cmp"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// referenced returns the secrets ni's images and tags name as pull secrets, each once, sorted
// by namespace and name. References without both parts are left out: they name no
// secret (the daemon notes them on the tags).
func referenced(ni *apps.NodeImage) []apps.ReferenceObject {
	var refs []apps.ReferenceObject
	add := func(list []apps.ReferenceObject) {
		for _, ref := range list {
			if ref.Namespace != "" && ref.Name != "" {
				refs = append(refs, ref)
			}
		}
	}
	for _, img := range ni.Spec.Images {
		add(img.PullSecrets)
		for _, tag := range img.Tags {
			add(tag.PullSecrets)
		}
	}
	slices.SortFunc(refs, func(a, b apps.ReferenceObject) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return slices.Compact(refs)
}

// pullSecretKeys is the one data key a puller reads from each image pull secret type.
var pullSecretKeys = map[corev1.SecretType]string{
	corev1.SecretTypeDockerConfigJson: corev1.DockerConfigJsonKey,
	corev1.SecretTypeDockercfg:        corev1.DockerConfigKey,
}

// pullSecretOnly returns what a puller needs of s: its identity, type and registry
// credentials, without labels, annotations (kubectl's last-applied copy would repeat
// every key) or any other data key. ok is false for a secret of another type: a
// NodeImage must not turn a service account token or a TLS key into something its
// node can read.
func pullSecretOnly(s *corev1.Secret) (_ *corev1.Secret, ok bool) {
	key, ok := pullSecretKeys[s.Type]
	if !ok {
		return nil, false
	}
	out := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Name:              s.Name,
			Namespace:         s.Namespace,
			UID:               s.UID,
			ResourceVersion:   s.ResourceVersion,
			CreationTimestamp: s.CreationTimestamp,
		},
		Type: s.Type,
	}
	if v, found := s.Data[key]; found {
		out.Data = map[string][]byte{key: v}
	}
	return out, true
}
