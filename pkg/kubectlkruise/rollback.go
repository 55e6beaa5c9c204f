package kubectlkruise

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// postRollback POSTs a <Kind>Rollback to the workload's rollback subresource in the
// version the resource builder resolved: the server picks and restores the revision, so
// this client never rewrites a template itself.
func postRollback(ctx context.Context, kc kruiseclient.Interface, t *target, toRevision int64, opts metav1.CreateOptions) (runtime.Object, error) {
	ns, name := t.namespace(), t.name()
	switch t.GVR.Version + "/" + t.GVR.Resource {
	case "v1alpha1/clonesets":
		return kc.AppsV1alpha1().CloneSets(ns).Rollback(ctx, name, &v1alpha1.CloneSetRollback{Name: name, ToRevision: toRevision}, opts)
	case "v1beta1/clonesets":
		return kc.AppsV1beta1().CloneSets(ns).Rollback(ctx, name, &v1beta1.CloneSetRollback{Name: name, ToRevision: toRevision}, opts)
	case "v1alpha1/statefulsets":
		return kc.AppsV1alpha1().StatefulSets(ns).Rollback(ctx, name, &v1alpha1.StatefulSetRollback{Name: name, ToRevision: toRevision}, opts)
	case "v1beta1/statefulsets":
		return kc.AppsV1beta1().StatefulSets(ns).Rollback(ctx, name, &v1beta1.StatefulSetRollback{Name: name, ToRevision: toRevision}, opts)
	case "v1alpha1/daemonsets":
		return kc.AppsV1alpha1().DaemonSets(ns).Rollback(ctx, name, &v1alpha1.DaemonSetRollback{Name: name, ToRevision: toRevision}, opts)
	case "v1beta1/daemonsets":
		return kc.AppsV1beta1().DaemonSets(ns).Rollback(ctx, name, &v1beta1.DaemonSetRollback{Name: name, ToRevision: toRevision}, opts)
	}
	return nil, fmt.Errorf("no rollback subresource for %s", t.GVR.String())
}
