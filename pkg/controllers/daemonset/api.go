package daemonset

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// api is the DaemonSet's side of podworkload.API, with its deferral rule.
type api struct{ client kruiseclient.Interface }

func (a api) Get(ctx context.Context, namespace, name string) (*v1beta1.DaemonSet, error) {
	return a.client.AppsV1beta1().DaemonSets(namespace).Get(ctx, name, metav1.GetOptions{})
}

func (api) Status(ds *v1beta1.DaemonSet) v1beta1.DaemonSetStatus { return ds.Status }

func (a api) UpdateStatus(ctx context.Context, ds *v1beta1.DaemonSet, status v1beta1.DaemonSetStatus) (*v1beta1.DaemonSet, error) {
	out := ds.DeepCopy()
	out.Status = status
	return a.client.AppsV1beta1().DaemonSets(out.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{FieldManager: ControllerName})
}

// Urgent is the DaemonSet's deferral rule (podworkload.DeferralRule): a sync that
// planned pod writes may leave its status to a later sync (written every time, a
// rollout costs a status write per sync, about one for every ten pods updated in
// place), unless the status says something new about the set itself (a generation,
// revision or node count), which is written at once.
func (api) Urgent(stored, computed v1beta1.DaemonSetStatus) bool {
	return computed.ObservedGeneration != stored.ObservedGeneration ||
		computed.UpdateRevision != stored.UpdateRevision || computed.DesiredNumberScheduled != stored.DesiredNumberScheduled
}
