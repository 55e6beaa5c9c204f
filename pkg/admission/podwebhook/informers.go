package podwebhook

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/deletionprotection"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// ConfigFromInformers reads what the handlers need from kruise-apiserver's informer
// factories (call it before they start): SidecarSets through the loopback client,
// namespaces from kube-apiserver, which kube also reads directly for a namespace the
// cache does not have yet (created a moment before its first pod).
func ConfigFromInformers(kruise kruiseinformers.SharedInformerFactory, kube kubeinformers.SharedInformerFactory,
	kubeClient kubernetes.Interface, metadataClient metadata.Interface, readinessGate bool) Config {
	sidecarSets := kruise.Apps().V1beta1().SidecarSets()
	ssLister := sidecarSets.Lister()
	namespaces := kube.Core().V1().Namespaces()
	nsLister := namespaces.Lister()
	ssSynced, nsSynced := sidecarSets.Informer().HasSynced, namespaces.Informer().HasSynced
	return Config{
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
		PinnedRevision: func(ctx context.Context, ss *apps.SidecarSet) (*appsv1.ControllerRevision, error) {
			return pinnedRevision(ctx, kubeClient, ss)
		},
		Synced:        func() bool { return ssSynced() && nsSynced() },
		ReadinessGate: readinessGate,
		// Read on demand rather than cached: deletes of protected objects are rare,
		// and a cache of every pod (or of every CRD's objects) would cost more.
		DeletionChildren: deletionprotection.Lookup{
			NamespacePods: deletionprotection.ListPods(kubeClient), Metadata: metadataClient}.ChildrenOf,
	}
}

// pinnedRevision reads the revision injectionStrategy.revision names, by name or as the
// newest of the SidecarSet's revisions with the custom version. Read on demand: few
// SidecarSets pin a revision, and a cache of every ControllerRevision would cost more.
func pinnedRevision(ctx context.Context, client kubernetes.Interface, ss *apps.SidecarSet) (*appsv1.ControllerRevision, error) {
	r := ss.Spec.InjectionStrategy.Revision
	revisions := client.AppsV1().ControllerRevisions(sidecarset.RevisionNamespace)
	if r.RevisionName != nil {
		rev, err := revisions.Get(ctx, *r.RevisionName, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		if !metav1.IsControlledBy(rev, ss) {
			return nil, fmt.Errorf("ControllerRevision %s/%s is not a revision of SidecarSet %s", rev.Namespace, rev.Name, ss.Name)
		}
		return rev, nil
	}
	if r.CustomVersion == nil {
		return nil, fmt.Errorf("injectionStrategy.revision names no revision")
	}
	list, err := revisions.List(ctx, metav1.ListOptions{LabelSelector: labels.Set{
		sidecarset.RevisionLabel: ss.Name, pub.SidecarSetCustomVersionLabel: *r.CustomVersion}.String()})
	if err != nil {
		return nil, err
	}
	var newest *appsv1.ControllerRevision
	for i := range list.Items {
		rev := &list.Items[i]
		if metav1.IsControlledBy(rev, ss) && (newest == nil || rev.Revision > newest.Revision) {
			newest = rev
		}
	}
	if newest == nil {
		return nil, fmt.Errorf("no revision of SidecarSet %s has custom version %q", ss.Name, *r.CustomVersion)
	}
	return newest, nil
}
