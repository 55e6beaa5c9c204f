// Package pullsecrets serves nodeimages/<node>/pullsecrets: the image pull secrets a
// NodeImage names, read by kruise-apiserver with its own credentials. It lets a node
// daemon pull private images without the right to read Secrets, as kube's Node
// authorizer lets a kubelet read only the secrets of its own pods: RBAC cannot tell
// one daemon from another (they share a ServiceAccount), and an authorization webhook
// would need kube-apiserver flags that managed clusters do not offer, so the
// node → NodeImage → secret check lives here, in the one server that knows the graph.
package pullsecrets

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// SecretReader reads one Secret from kube-apiserver. A missing Secret is a NotFound
// error.
type SecretReader func(ctx context.Context, namespace, name string) (*corev1.Secret, error)

// REST is the read-only pullsecrets subresource of nodeimages.
type REST struct {
	nodeImages rest.Getter
	read       SecretReader
}

var (
	_ rest.Getter                   = &REST{}
	_ rest.GroupVersionKindProvider = &REST{}
	_ rest.TableConvertor           = &REST{}
)

// NewREST serves the pull secrets of the NodeImages nodeImages returns, reading
// them with read.
func NewREST(nodeImages rest.Getter, read SecretReader) *REST {
	return &REST{nodeImages: nodeImages, read: read}
}

// GroupVersionKind says every version serves a core/v1 SecretList: the daemon turns
// secrets into registry credentials as before, with client-go's own types.
func (r *REST) GroupVersionKind(schema.GroupVersion) schema.GroupVersionKind {
	return corev1.SchemeGroupVersion.WithKind("SecretList")
}

// New returns an empty SecretList.
func (r *REST) New() runtime.Object { return &corev1.SecretList{} }

// Destroy is a no-op: the NodeImage store is shared with the main resource.
func (r *REST) Destroy() {}

// Get returns the pull secrets of NodeImage name. A node daemon may ask only for its
// own node's; reads run no admission, so the check is made here, before anything is
// read. Other callers were already authorized for nodeimages/pullsecrets by RBAC.
func (r *REST) Get(ctx context.Context, name string, options *metav1.GetOptions) (runtime.Object, error) {
	if err := authorizeCaller(ctx, name); err != nil {
		return nil, err
	}
	obj, err := r.nodeImages.Get(ctx, name, options)
	if err != nil {
		return nil, err
	}
	ni, ok := obj.(*apps.NodeImage)
	if !ok {
		return nil, apierrors.NewInternalError(fmt.Errorf("nodeimages storage returned %T", obj))
	}
	list := &corev1.SecretList{Items: []corev1.Secret{}}
	for _, ref := range referenced(ni) {
		s, err := r.read(ctx, ref.Namespace, ref.Name)
		if apierrors.IsNotFound(err) {
			// The daemon notes the secret as missing on the tags that name it.
			continue
		}
		if err != nil {
			// Never the caller's fault (it was authorized): say so rather than pass
			// kube-apiserver's status (a 403 for our own account) through as its own.
			return nil, apierrors.NewInternalError(fmt.Errorf("reading pull secret %s/%s: %w", ref.Namespace, ref.Name, err))
		}
		if p, ok := pullSecretOnly(s); ok {
			list.Items = append(list.Items, *p)
		} else {
			klog.FromContext(ctx).V(2).Info("NodeImage names a secret that is no image pull secret; not served",
				"nodeImage", name, "secret", klog.KRef(ref.Namespace, ref.Name), "type", s.Type)
		}
	}
	return list, nil
}

// ConvertToTable prints the secrets' names and ages (`kubectl get --subresource`).
func (r *REST) ConvertToTable(ctx context.Context, object runtime.Object, tableOptions runtime.Object) (*metav1.Table, error) {
	return rest.NewDefaultTableConvertor(corev1.Resource("secrets")).ConvertToTable(ctx, object, tableOptions)
}
