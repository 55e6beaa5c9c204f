package storage_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/apiserver"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/statefulset/storage"
	"github.com/kruise-native/kruise-native/pkg/registry/registrytest"
)

func newStorage(t *testing.T) storage.Storage {
	t.Helper()
	s, err := storage.NewStorage(apiserver.Scheme, registrytest.OptionsGetter(registrytest.NewRESTOptions(t, "statefulsets")), nil)
	if err != nil {
		t.Fatalf("NewStorage: %v", err)
	}
	t.Cleanup(s.StatefulSet.Store.DestroyFunc)
	return s
}

// validStatefulSet is a StatefulSet as the registry receives it: decoded from v1beta1 and defaulted.
func validStatefulSet() *apps.StatefulSet {
	in := &v1beta1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "ss", Namespace: metav1.NamespaceDefault},
		Spec: v1beta1.StatefulSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "ss"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "ss"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:alpine"}}},
			},
		},
	}
	apiserver.Scheme.Default(in)
	out := &apps.StatefulSet{}
	if err := apiserver.Scheme.Convert(in, out, nil); err != nil {
		panic(err)
	}
	return out
}

func TestConformance(t *testing.T) {
	registrytest.RunWorkloadConformance(t, func(t *testing.T) registrytest.Workload[*apps.StatefulSet] {
		s := newStorage(t)
		return registrytest.Workload[*apps.StatefulSet]{
			Store: s.StatefulSet.Store, Status: s.Status, Scale: s.Scale, Discovery: s.StatefulSet,
			Valid: validStatefulSet, Name: "ss",
			Replicas:       func(ss *apps.StatefulSet) *int32 { return ss.Spec.Replicas },
			StatusReplicas: func(ss *apps.StatefulSet) *int32 { return &ss.Status.Replicas },
			BreakCreate:    func(ss *apps.StatefulSet) { ss.Spec.Template.Labels = map[string]string{"app": "other"} },
			BreakUpdate: func(ss *apps.StatefulSet) {
				ss.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "changed"}}
			},
			ShortNames: []string{"sts", "asts"}, Categories: []string{"all", "kruise"},
		}
	})
}
