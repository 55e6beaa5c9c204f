package ceiling

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// elsewhereName is the SidecarSet present through the run that selects none of its
// pods: a cluster where SidecarSets exist, none matching the pods being created (the
// case the issue measures), not one without any.
const elsewhereName = "ceiling-elsewhere"

// createElsewhere creates the SidecarSet; the returned func deletes it.
func createElsewhere(ctx context.Context, cfg *rest.Config) (func(context.Context) error, error) {
	client, err := kruiseclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	sets := client.AppsV1beta1().SidecarSets()
	ss := &v1beta1.SidecarSet{
		ObjectMeta: metav1.ObjectMeta{Name: elsewhereName},
		Spec: v1beta1.SidecarSetSpec{
			Selector:   &metav1.LabelSelector{MatchLabels: map[string]string{"app": elsewhereName}},
			Containers: []v1beta1.SidecarContainer{{Container: corev1.Container{Name: "elsewhere", Image: "busybox"}}},
		},
	}
	if _, err := sets.Create(ctx, ss, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("creating SidecarSet %s: %w", elsewhereName, err)
	}
	return func(ctx context.Context) error {
		if err := sets.Delete(ctx, elsewhereName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting SidecarSet %s: %w", elsewhereName, err)
		}
		return nil
	}, nil
}
