// Package statefulset describes statefulsets.apps.kruise.io (Advanced StatefulSet):
// names, accessors, validation, printed columns, scale and rollback.
package statefulset

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// Kind describes statefulsets.apps.kruise.io.
var Kind = resource.Kind[*apps.StatefulSet, apps.StatefulSetSpec, apps.StatefulSetStatus]{
	Group:      apps.GroupName,
	Versions:   []string{"v1beta1", "v1alpha1"},
	Plural:     "statefulsets",
	Singular:   "statefulset",
	ShortNames: []string{"sts", "asts"},
	Categories: []string{"kruise"},
	New:        func() *apps.StatefulSet { return &apps.StatefulSet{} },
	NewList:    func() runtime.Object { return &apps.StatefulSetList{} },
	Spec:       func(ss *apps.StatefulSet) *apps.StatefulSetSpec { return &ss.Spec },
	Status:     func(ss *apps.StatefulSet) *apps.StatefulSetStatus { return &ss.Status },
	Templates: func(ss *apps.StatefulSet) (*corev1.PodTemplateSpec, []corev1.PersistentVolumeClaim) {
		return &ss.Spec.Template, ss.Spec.VolumeClaimTemplates
	},
	Validate:             validation.ValidateStatefulSet,
	ValidateUpdate:       validation.ValidateStatefulSetUpdate,
	ValidateStatusUpdate: validation.ValidateStatefulSetStatusUpdate,
	Table:                TableConvertor,
	Scale: &resource.Scale[*apps.StatefulSet]{
		Replicas: func(ss *apps.StatefulSet) *int32 {
			if ss.Spec.Replicas == nil {
				ss.Spec.Replicas = new(int32)
			}
			return ss.Spec.Replicas
		},
		StatusReplicas: func(ss *apps.StatefulSet) int32 { return ss.Status.Replicas },
		Selector:       func(ss *apps.StatefulSet) *metav1.LabelSelector { return ss.Spec.Selector },
	},
	Rollback: &resource.Rollback[*apps.StatefulSet]{
		Kind: "StatefulSetRollback",
		New:  func() runtime.Object { return &apps.StatefulSetRollback{} },
		Request: func(obj runtime.Object) (string, int64, field.ErrorList) {
			r := obj.(*apps.StatefulSetRollback)
			return r.Name, r.ToRevision, validation.ValidateStatefulSetRollback(r)
		},
	},
}
