// Package livepods is how an admission plugin reads a pod: one GET from kube-apiserver,
// where pods live, not a cache of every pod in this server. The plugins that need one
// (a new ContainerRecreateRequest's pod, the names added to a CloneSet's podsToDelete)
// read it on a rare write, which a cluster-wide pod cache would cost far more than.
package livepods

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	genericadmissioninit "k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/client-go/kubernetes"
)

// Reader reads pods once the generic initializer gave it kube's client; a plugin embeds
// it, which makes the plugin want that client and fail start-up without one.
type Reader struct {
	client kubernetes.Interface
}

var _ genericadmissioninit.WantsExternalKubeClientSet = &Reader{}

// SetExternalKubeClientSet gives the reader kube-apiserver.
func (r *Reader) SetExternalKubeClientSet(c kubernetes.Interface) { r.client = c }

// ValidateInitialization fails server start-up without a kube client.
func (r *Reader) ValidateInitialization() error {
	if r.client == nil {
		return errors.New("no kube-apiserver client (--kubeconfig)")
	}
	return nil
}

// Pod reads one pod. An error is the client's (IsNotFound when there is none); the pod
// is nil with any error.
func (r *Reader) Pod(ctx context.Context, namespace, name string) (*corev1.Pod, error) {
	pod, err := r.client.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return pod, nil
}
