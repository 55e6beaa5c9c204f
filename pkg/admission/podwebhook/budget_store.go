package podwebhook

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
	policylisters "github.com/kruise-native/kruise-native/pkg/generated/listers/policy/v1beta1"
)

// BudgetStore is what the PodUnavailableBudget guard reads and writes.
type BudgetStore interface {
	// List returns the budgets of a namespace (from a cache).
	List(namespace string) ([]*policyv1beta1.PodUnavailableBudget, error)
	// Get reads a budget from the server: the retry after a conflict needs the
	// status the other writer left.
	Get(ctx context.Context, namespace, name string) (*policyv1beta1.PodUnavailableBudget, error)
	// UpdateStatus writes a budget's status with the resourceVersion it carries and
	// returns the budget as stored.
	UpdateStatus(ctx context.Context, pub *policyv1beta1.PodUnavailableBudget) (*policyv1beta1.PodUnavailableBudget, error)
	// Pod reads a pod (an eviction names its pod; the request does not carry it).
	Pod(ctx context.Context, namespace, name string) (*corev1.Pod, error)
	// ReplicaSetController returns the controller reference of a pod's ReplicaSet, if any: a
	// budget whose target is a Deployment covers the pods of its ReplicaSets.
	ReplicaSetController(ctx context.Context, namespace, name string) (*metav1.OwnerReference, error)
	// OwnersGone reports whether a pod's owners are all gone or being deleted: its
	// deletion is then no disruption a budget holds back (budget_owners.go).
	OwnersGone(ctx context.Context, namespace string, owners []metav1.OwnerReference) (bool, error)
	// Synced reports whether the cache List reads has synced.
	Synced() bool
}

// BudgetsFromInformers is the BudgetStore of kruise-apiserver: budgets from its
// informer factory (call before the factory starts), written through its loopback
// client; pods, ReplicaSets and pods' owners read from kube-apiserver on demand
// (evictions, Deployment targets, refusals only).
func BudgetsFromInformers(kruise kruiseinformers.SharedInformerFactory, kruiseClient kruiseclient.Interface,
	kubeClient kubernetes.Interface, metadataClient metadata.Interface) BudgetStore {
	informer := kruise.Policy().V1beta1().PodUnavailableBudgets()
	return &informerBudgets{
		lister: informer.Lister(), synced: informer.Informer().HasSynced,
		kruise: kruiseClient, kube: kubeClient,
		ownersGone: OwnersGone(kubeClient.Discovery(), metadataClient),
	}
}

type informerBudgets struct {
	lister     policylisters.PodUnavailableBudgetLister
	synced     func() bool
	kruise     kruiseclient.Interface
	kube       kubernetes.Interface
	ownersGone OwnersGoneFunc
}

func (b *informerBudgets) OwnersGone(ctx context.Context, namespace string, owners []metav1.OwnerReference) (bool, error) {
	return b.ownersGone(ctx, namespace, owners)
}

func (b *informerBudgets) List(namespace string) ([]*policyv1beta1.PodUnavailableBudget, error) {
	return b.lister.PodUnavailableBudgets(namespace).List(labels.Everything())
}

func (b *informerBudgets) Get(ctx context.Context, namespace, name string) (*policyv1beta1.PodUnavailableBudget, error) {
	return b.kruise.PolicyV1beta1().PodUnavailableBudgets(namespace).Get(ctx, name, metav1.GetOptions{})
}

func (b *informerBudgets) UpdateStatus(ctx context.Context, pub *policyv1beta1.PodUnavailableBudget) (*policyv1beta1.PodUnavailableBudget, error) {
	return b.kruise.PolicyV1beta1().PodUnavailableBudgets(pub.Namespace).UpdateStatus(ctx, pub, metav1.UpdateOptions{})
}

func (b *informerBudgets) Pod(ctx context.Context, namespace, name string) (*corev1.Pod, error) {
	return b.kube.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
}

func (b *informerBudgets) ReplicaSetController(ctx context.Context, namespace, name string) (*metav1.OwnerReference, error) {
	return replicaSetController(ctx, b.kube, namespace, name)
}

// replicaSetController is the controller of a pod's ReplicaSet (its Deployment), read
// live: the webhook keeps no ReplicaSet cache (one GET per covered pod disruption or
// placement is cheaper than watching every ReplicaSet).
func replicaSetController(ctx context.Context, kube kubernetes.Interface, namespace, name string) (*metav1.OwnerReference, error) {
	rs, err := kube.AppsV1().ReplicaSets(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return metav1.GetControllerOf(rs), nil
}

func (b *informerBudgets) Synced() bool { return b.synced() }
