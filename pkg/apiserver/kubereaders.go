package apiserver

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kruise-native/kruise-native/pkg/registry/apps/nodeimage/pullsecrets"
	"github.com/kruise-native/kruise-native/pkg/registry/rollback"
)

// kubeReaders are the core objects kruise-apiserver's endpoints read from
// kube-apiserver with its own credentials: workloads' ControllerRevisions, where the
// controllers keep them (rollback), and the pull secrets NodeImages name (the
// nodeimages/pullsecrets subresource; kruise-apiserver may get secrets, daemons may not).
type kubeReaders struct {
	revisions rollback.RevisionLister
	secret    pullsecrets.SecretReader
}

// newKubeReaders reads through cfg; without one (no --kubeconfig) every read fails
// with a clear error, and the endpoints that need none still serve.
func newKubeReaders(cfg *rest.Config) (kubeReaders, error) {
	if cfg == nil {
		const why = "no kube-apiserver client configured (--kubeconfig)"
		return kubeReaders{
			revisions: func(context.Context, string) ([]appsv1.ControllerRevision, error) {
				return nil, fmt.Errorf("%s", why)
			},
			secret: func(context.Context, string, string) (*corev1.Secret, error) {
				return nil, apierrors.NewServiceUnavailable(why)
			},
		}, nil
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return kubeReaders{}, fmt.Errorf("kube client: %w", err)
	}
	return kubeReaders{
		revisions: func(ctx context.Context, ns string) ([]appsv1.ControllerRevision, error) {
			list, err := client.AppsV1().ControllerRevisions(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return nil, err
			}
			return list.Items, nil
		},
		secret: func(ctx context.Context, ns, name string) (*corev1.Secret, error) {
			return client.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
		},
	}, nil
}
