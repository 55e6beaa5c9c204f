// Package cloneset describes clonesets.apps.kruise.io: names, accessors, validation,
// printed columns, scale and rollback.
package cloneset

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// Kind describes clonesets.
var Kind = resource.Kind[*apps.CloneSet, apps.CloneSetSpec, apps.CloneSetStatus]{
	Group:      apps.GroupName,
	Versions:   []string{"v1beta1", "v1alpha1"},
	Plural:     "clonesets",
	Singular:   "cloneset",
	ShortNames: []string{"clone"},
	Categories: []string{"kruise"},
	New:        func() *apps.CloneSet { return &apps.CloneSet{} },
	NewList:    func() runtime.Object { return &apps.CloneSetList{} },
	Spec:       func(cs *apps.CloneSet) *apps.CloneSetSpec { return &cs.Spec },
	Status:     func(cs *apps.CloneSet) *apps.CloneSetStatus { return &cs.Status },
	Templates: func(cs *apps.CloneSet) (*corev1.PodTemplateSpec, []corev1.PersistentVolumeClaim) {
		return &cs.Spec.Template, cs.Spec.VolumeClaimTemplates
	},
	Validate:             validation.ValidateCloneSet,
	ValidateUpdate:       validation.ValidateCloneSetUpdate,
	ValidateStatusUpdate: validation.ValidateCloneSetStatusUpdate,
	ErrorPaths:           errorPaths,
	Table:                TableConvertor,
	Scale: &resource.Scale[*apps.CloneSet]{
		Replicas: func(cs *apps.CloneSet) *int32 {
			if cs.Spec.Replicas == nil {
				cs.Spec.Replicas = new(int32)
			}
			return cs.Spec.Replicas
		},
		StatusReplicas: func(cs *apps.CloneSet) int32 { return cs.Status.Replicas },
		Selector:       func(cs *apps.CloneSet) *metav1.LabelSelector { return cs.Spec.Selector },
	},
	Rollback: &resource.Rollback[*apps.CloneSet]{
		Kind: "CloneSetRollback",
		New:  func() runtime.Object { return &apps.CloneSetRollback{} },
		Request: func(obj runtime.Object) (string, int64, field.ErrorList) {
			r := obj.(*apps.CloneSetRollback)
			return r.Name, r.ToRevision, validation.ValidateCloneSetRollback(r)
		},
	},
}
