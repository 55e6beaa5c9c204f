package deletionprotection

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/metadata"
)

// The built-in resources the label protects beyond Kruise's own kinds.
var (
	NamespacesResource   = schema.GroupResource{Resource: "namespaces"}
	CRDsResource         = schema.GroupResource{Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"}
	DeploymentsResource  = schema.GroupResource{Group: "apps", Resource: "deployments"}
	ReplicaSetsResource  = schema.GroupResource{Group: "apps", Resource: "replicasets"}
	StatefulSetsResource = schema.GroupResource{Group: "apps", Resource: "statefulsets"}
	// Services and Ingresses have no children: Cascading never refuses their deletion
	// (OpenKruise enforces only Always on them).
	ServicesResource  = schema.GroupResource{Resource: "services"}
	IngressesResource = schema.GroupResource{Group: "networking.k8s.io", Resource: "ingresses"}
)

// podListLimit bounds the pods read to decide on a Namespace: the rule needs one
// active pod, and a namespace of thousands must not cost a full list per DELETE.
const podListLimit = 100

// PodsFunc returns unfinished pods of a namespace: all of them, or some (more says
// others were left out).
type PodsFunc func(ctx context.Context, namespace string) (pods []*corev1.Pod, more bool, err error)

// Lookup counts the children of the built-in protected resources with the smallest
// reads that answer "are there any": a namespace's unfinished pods (a limited list,
// or a cache), a metadata-only list with limit=1 of a CRD's objects. Workloads need
// no read: their replicas are in the object.
type Lookup struct {
	NamespacePods PodsFunc
	Metadata      metadata.Interface
}

// ListPods reads a namespace's unfinished pods from kube-apiserver, at most
// podListLimit of them.
func ListPods(client kubernetes.Interface) PodsFunc {
	return func(ctx context.Context, namespace string) ([]*corev1.Pod, bool, error) {
		list, err := client.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{
			Limit: podListLimit,
			FieldSelector: fields.AndSelectors(
				fields.OneTermNotEqualSelector("status.phase", string(corev1.PodSucceeded)),
				fields.OneTermNotEqualSelector("status.phase", string(corev1.PodFailed))).String(),
		})
		if err != nil {
			return nil, false, err
		}
		pods := make([]*corev1.Pod, len(list.Items))
		for i := range list.Items {
			pods[i] = &list.Items[i]
		}
		return pods, list.Continue != "", nil
	}
}

// CachedPods reads a namespace's pods from an informer's lister.
func CachedPods(lister corelisters.PodLister) PodsFunc {
	return func(_ context.Context, namespace string) ([]*corev1.Pod, bool, error) {
		pods, err := lister.Pods(namespace).List(labels.Everything())
		return pods, false, err
	}
}

// ChildrenOf returns the counter of obj's children, obj being an object of gr (a
// request's old object, or an informer's last state of it). Resources the rule does
// not know have none.
func (l Lookup) ChildrenOf(ctx context.Context, gr schema.GroupResource, obj *unstructured.Unstructured) ChildrenFunc {
	return func() (Children, error) {
		switch gr {
		case NamespacesResource:
			return l.namespacePods(ctx, obj)
		case CRDsResource:
			gvr, err := CRDStorageResource(obj)
			if err != nil {
				return Children{}, err
			}
			return l.customObjects(ctx, gvr)
		case DeploymentsResource, ReplicaSetsResource, StatefulSetsResource:
			return WorkloadReplicas(obj)
		}
		return Children{}, nil
	}
}

// WorkloadReplicas reads spec.replicas of an apps/v1 workload (defaulted to 1 when
// stored, as kube-apiserver does).
func WorkloadReplicas(obj *unstructured.Unstructured) (Children, error) {
	n, found, err := unstructured.NestedInt64(obj.Object, "spec", "replicas")
	if err != nil {
		return Children{}, fmt.Errorf("reading spec.replicas of %s: %w", obj.GetName(), err)
	}
	if !found {
		n = 1
	}
	return Replicas("spec.replicas", n), nil
}

// namespacePods counts the pods active when ns's deletion began (its
// deletionTimestamp; now, for a namespace not being deleted yet).
func (l Lookup) namespacePods(ctx context.Context, ns *unstructured.Unstructured) (Children, error) {
	pods, more, err := l.NamespacePods(ctx, ns.GetName())
	if err != nil {
		return Children{}, fmt.Errorf("listing the pods of namespace %s: %w", ns.GetName(), err)
	}
	return Pods(CountActivePods(pods, ns.GetDeletionTimestamp()), more), nil
}

func (l Lookup) customObjects(ctx context.Context, gvr schema.GroupVersionResource) (Children, error) {
	list, err := l.Metadata.Resource(gvr).List(ctx, metav1.ListOptions{Limit: 1})
	if err != nil {
		return Children{}, fmt.Errorf("listing %s: %w", gvr.GroupResource(), err)
	}
	return Objects(gvr.GroupResource().String(), int64(len(list.Items))), nil
}

// CRDStorageResource is the resource a CustomResourceDefinition serves, in the
// version its objects are stored in (or, if that one is not served, the first served
// one): any served version lists every object.
func CRDStorageResource(crd *unstructured.Unstructured) (schema.GroupVersionResource, error) {
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "plural")
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	var storage, served string
	for _, v := range versions {
		m, ok := v.(map[string]interface{})
		if !ok {
			continue
		}
		name, _ := m["name"].(string)
		isServed, _ := m["served"].(bool)
		isStorage, _ := m["storage"].(bool)
		if isServed && served == "" {
			served = name
		}
		if isServed && isStorage {
			storage = name
		}
	}
	if storage == "" {
		storage = served
	}
	if group == "" || plural == "" || storage == "" {
		return schema.GroupVersionResource{}, fmt.Errorf("CustomResourceDefinition %s names no group, plural or served version", crd.GetName())
	}
	return schema.GroupVersionResource{Group: group, Version: storage, Resource: plural}, nil
}
