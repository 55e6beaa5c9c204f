package podwebhook

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
	appslisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/workloadspread"
)

// SpreadStore is what the WorkloadSpread handler reads and writes.
type SpreadStore interface {
	// List returns the WorkloadSpreads of a namespace (from a cache).
	List(namespace string) ([]*appsv1beta1.WorkloadSpread, error)
	// Get reads a WorkloadSpread from the server (the retry after a conflict).
	Get(ctx context.Context, namespace, name string) (*appsv1beta1.WorkloadSpread, error)
	// UpdateStatus writes a WorkloadSpread's status with the resourceVersion it carries.
	UpdateStatus(ctx context.Context, ws *appsv1beta1.WorkloadSpread) (*appsv1beta1.WorkloadSpread, error)
	// ReplicaSetController returns the controller reference of a ReplicaSet, if any: a
	// spread whose target is a Deployment places the pods of its ReplicaSets.
	ReplicaSetController(ctx context.Context, namespace, name string) (*metav1.OwnerReference, error)
	// TargetReplicas reads the replicas of a versioned spread's target (a Deployment or
	// ReplicaSet), through its targetFilter's replicasPathList if set.
	TargetReplicas(ctx context.Context, ws *appsv1beta1.WorkloadSpread) (int32, error)
	// Synced reports whether the cache List reads has synced.
	Synced() bool
}

// SpreadsFromInformers is the SpreadStore of kruise-apiserver: WorkloadSpreads from its
// informer factory (call before the factory starts), written through its loopback
// client; ReplicaSets read from kube-apiserver on demand (Deployment targets only).
func SpreadsFromInformers(kruise kruiseinformers.SharedInformerFactory, kruiseClient kruiseclient.Interface,
	kubeClient kubernetes.Interface) SpreadStore {
	informer := kruise.Apps().V1beta1().WorkloadSpreads()
	return &informerSpreads{lister: informer.Lister(), synced: informer.Informer().HasSynced,
		kruise: kruiseClient, kube: kubeClient}
}

type informerSpreads struct {
	lister appslisters.WorkloadSpreadLister
	synced func() bool
	kruise kruiseclient.Interface
	kube   kubernetes.Interface
}

func (s *informerSpreads) List(namespace string) ([]*appsv1beta1.WorkloadSpread, error) {
	return s.lister.WorkloadSpreads(namespace).List(labels.Everything())
}

func (s *informerSpreads) Get(ctx context.Context, namespace, name string) (*appsv1beta1.WorkloadSpread, error) {
	return s.kruise.AppsV1beta1().WorkloadSpreads(namespace).Get(ctx, name, metav1.GetOptions{})
}

func (s *informerSpreads) UpdateStatus(ctx context.Context, ws *appsv1beta1.WorkloadSpread) (*appsv1beta1.WorkloadSpread, error) {
	return s.kruise.AppsV1beta1().WorkloadSpreads(ws.Namespace).UpdateStatus(ctx, ws, metav1.UpdateOptions{})
}

func (s *informerSpreads) ReplicaSetController(ctx context.Context, namespace, name string) (*metav1.OwnerReference, error) {
	return replicaSetController(ctx, s.kube, namespace, name)
}

func (s *informerSpreads) Synced() bool { return s.synced() }

func (s *informerSpreads) TargetReplicas(ctx context.Context, ws *appsv1beta1.WorkloadSpread) (int32, error) {
	ref := ws.Spec.TargetReference
	var obj runtime.Object
	var replicas *int32
	switch ref.Kind {
	case "Deployment":
		d, err := s.kube.AppsV1().Deployments(ws.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
		if err != nil {
			return 0, err
		}
		obj, replicas = d, d.Spec.Replicas
	case "ReplicaSet":
		rs, err := s.kube.AppsV1().ReplicaSets(ws.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
		if err != nil {
			return 0, err
		}
		obj, replicas = rs, rs.Spec.Replicas
	default:
		return 0, fmt.Errorf("%s is not a versioned target", ref.Kind)
	}
	var fields map[string]any
	if f := ws.Spec.TargetFilter; f != nil && len(f.ReplicasPathList) > 0 {
		var err error
		if fields, err = runtime.DefaultUnstructuredConverter.ToUnstructured(obj); err != nil {
			return 0, err
		}
	}
	return workloadspread.FilteredReplicas(ws, fields, ptr.Deref(replicas, 1))
}
