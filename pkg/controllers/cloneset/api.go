package cloneset

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// api is the CloneSet's side of podworkload.API.
type api struct{ client kruiseclient.Interface }

func (a api) Get(ctx context.Context, namespace, name string) (*v1beta1.CloneSet, error) {
	return a.client.AppsV1beta1().CloneSets(namespace).Get(ctx, name, metav1.GetOptions{})
}

func (api) Status(cs *v1beta1.CloneSet) v1beta1.CloneSetStatus { return cs.Status }

func (a api) UpdateStatus(ctx context.Context, cs *v1beta1.CloneSet, status v1beta1.CloneSetStatus) (*v1beta1.CloneSet, error) {
	out := cs.DeepCopy()
	out.Status = status
	return a.client.AppsV1beta1().CloneSets(out.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{FieldManager: ControllerName})
}
