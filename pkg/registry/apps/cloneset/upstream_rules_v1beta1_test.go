package cloneset_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/cloneset"
)

// TestUpstreamRulesCloneSetV1beta1: the update strategy rules of OpenKruise's CloneSet
// webhook (pkg/webhook/cloneset/validating/validation.go:validateUpdateStrategy and
// the FieldsValidation it calls) on a v1beta1 CloneSet, reported at v1beta1's paths
// (spec.updateStrategy.rollingUpdate.*); the v1alpha1 table is in
// pkg/apis/apps/validation.
func TestUpstreamRulesCloneSetV1beta1(t *testing.T) {
	const (
		v  = "cloneset/validating/validation.go:validateUpdateStrategy: "
		ru = "spec.updateStrategy.rollingUpdate"
	)
	cases := []struct {
		upstream string
		rolling  v1beta1.RollingUpdateCloneSetStrategy
		want     string
	}{
		{v + "partition an integer or percent", v1beta1.RollingUpdateCloneSetStrategy{Partition: ptr.To(intstr.FromString("half"))}, ru + ".partition"},
		{v + "maxUnavailable an integer or percent", v1beta1.RollingUpdateCloneSetStrategy{MaxUnavailable: ptr.To(intstr.FromString("some"))}, ru + ".maxUnavailable"},
		{v + "no maxSurge with InPlaceOnly", v1beta1.RollingUpdateCloneSetStrategy{
			PodUpdatePolicy: v1beta1.InPlaceOnlyCloneSetPodUpdateStrategyType, MaxSurge: ptr.To(intstr.FromInt32(1))}, ru + ".maxSurge"},
		{v + "priorityStrategy valid (FieldsValidation: orderedKey not empty)", v1beta1.RollingUpdateCloneSetStrategy{
			PriorityStrategy: &pub.UpdatePriorityStrategy{OrderPriority: []pub.UpdatePriorityOrderTerm{{}}}}, ru + ".priorityStrategy.orderPriority[0].orderedKey"},
		{v + "scatterStrategy valid (FieldsValidation: key not empty)", v1beta1.RollingUpdateCloneSetStrategy{
			ScatterStrategy: []pub.UpdateScatterTerm{{Value: "a"}}}, ru + ".scatterStrategy[0].key"},
	}
	for _, tc := range cases {
		t.Run(tc.upstream, func(t *testing.T) {
			in := &v1beta1.CloneSet{
				ObjectMeta: metav1.ObjectMeta{Name: "cs", Namespace: metav1.NamespaceDefault},
				Spec: v1beta1.CloneSetSpec{
					Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "cs"}},
					Template: corev1.PodTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "cs"}},
						Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:alpine"}}},
					},
					UpdateStrategy: v1beta1.CloneSetUpdateStrategy{RollingUpdate: tc.rolling.DeepCopy()},
				},
			}
			scheme.Scheme.Default(in)
			hub := &apps.CloneSet{}
			if err := scheme.Scheme.Convert(in, hub, nil); err != nil {
				t.Fatal(err)
			}
			errs := cloneset.Kind.ErrorPaths("v1beta1", validation.ValidateCloneSet(hub))
			if len(errs) != 1 || errs[0].Field != tc.want {
				t.Fatalf("errors %v, want one at %s", errs, tc.want)
			}
		})
	}
}
