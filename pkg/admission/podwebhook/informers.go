package podwebhook

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
)

// NewFromInformers builds the webhook on kruise-apiserver's informer factories (call
// it before they start): SidecarSets through the loopback client, namespaces from
// kube-apiserver, which kube also reads directly for a namespace the cache does not
// have yet (created a moment before its first pod).
func NewFromInformers(kruise kruiseinformers.SharedInformerFactory, kube kubeinformers.SharedInformerFactory,
	kubeClient kubernetes.Interface, readinessGate bool) *Webhook {
	sidecarSets := kruise.Apps().V1beta1().SidecarSets()
	ssLister := sidecarSets.Lister()
	namespaces := kube.Core().V1().Namespaces()
	nsLister := namespaces.Lister()
	ssSynced, nsSynced := sidecarSets.Informer().HasSynced, namespaces.Informer().HasSynced
	return New(Config{
		SidecarSets: func() ([]*v1beta1.SidecarSet, error) { return ssLister.List(labels.Everything()) },
		NamespaceLabels: func(ctx context.Context, name string) (labels.Set, error) {
			ns, err := nsLister.Get(name)
			if apierrors.IsNotFound(err) {
				ns, err = kubeClient.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
			}
			if err != nil {
				return nil, fmt.Errorf("reading namespace %s: %w", name, err)
			}
			return ns.Labels, nil
		},
		Synced:        func() bool { return ssSynced() && nsSynced() },
		ReadinessGate: readinessGate,
	})
}
