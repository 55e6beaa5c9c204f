package imagesync

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// NewPullSecretLister reads node's pull secrets from kruise-apiserver's
// nodeimages/<node>/pullsecrets subresource, which serves a core/v1 SecretList. The
// server lets a daemon read its own node's only (the node name in its token).
func NewPullSecretLister(client kruiseclient.Interface, node string) PullSecretLister {
	return func(ctx context.Context) ([]corev1.Secret, error) {
		var list corev1.SecretList
		err := client.AppsV1alpha1().RESTClient().Get().
			Resource("nodeimages").Name(node).SubResource("pullsecrets").
			Do(ctx).Into(&list)
		if err != nil {
			return nil, fmt.Errorf("reading the pull secrets of NodeImage %s: %w", node, err)
		}
		return list.Items, nil
	}
}
