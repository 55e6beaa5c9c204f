package statefulset

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// api is the set's side of podworkload.API.
type api struct{ client kruiseclient.Interface }

func (a api) Get(ctx context.Context, namespace, name string) (*v1beta1.StatefulSet, error) {
	return a.client.AppsV1beta1().StatefulSets(namespace).Get(ctx, name, metav1.GetOptions{})
}

func (api) Status(set *v1beta1.StatefulSet) v1beta1.StatefulSetStatus { return set.Status }

func (a api) UpdateStatus(ctx context.Context, set *v1beta1.StatefulSet, status v1beta1.StatefulSetStatus) (*v1beta1.StatefulSet, error) {
	out := set.DeepCopy()
	out.Status = status
	return a.client.AppsV1beta1().StatefulSets(out.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{FieldManager: ControllerName})
}
