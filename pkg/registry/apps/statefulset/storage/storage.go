// Package storage wires StatefulSets to etcd: the main resource and its status and
// scale subresources share one generic Store.
package storage

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/generic"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/statefulset"
	"github.com/kruise-native/kruise-native/pkg/registry/rollback"
	"github.com/kruise-native/kruise-native/pkg/registry/scale"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Storage is every endpoint of the statefulsets resource.
type Storage struct {
	StatefulSet *workload.REST
	Status      *workload.StatusREST
	Scale       *scale.REST
	Rollback    *rollback.REST
}

// NewStorage builds the statefulsets endpoints on optsGetter's storage.
func NewStorage(typer runtime.ObjectTyper, optsGetter generic.RESTOptionsGetter, revisions rollback.RevisionLister) (Storage, error) {
	main, err := workload.NewREST(workload.Resource{
		Plural:      apps.Resource("statefulsets"),
		Singular:    apps.Resource("statefulset"),
		NewFunc:     func() runtime.Object { return &apps.StatefulSet{} },
		NewListFunc: func() runtime.Object { return &apps.StatefulSetList{} },
		Strategy:    statefulset.NewStrategy(typer),
		Table:       statefulset.TableConvertor,
		ShortNames:  []string{"sts", "asts"},
		Categories:  []string{"all", "kruise"},
	}, optsGetter)
	if err != nil {
		return Storage{}, err
	}
	return Storage{
		StatefulSet: main,
		Status:      workload.NewStatusREST(main.Store, statefulset.NewStatusStrategy(typer)),
		Scale:       scale.NewREST(main.Store, scaleAccessor),
		Rollback:    rollback.NewREST(main.Store, rollbackAccessor, revisions),
	}, nil
}

var scaleAccessor = scale.Accessor{
	Resource: apps.Resource("statefulsets/scale"),
	Versions: []schema.GroupVersion{
		{Group: apps.GroupName, Version: "v1beta1"},
		{Group: apps.GroupName, Version: "v1alpha1"},
	},
	SpecReplicas: func(obj runtime.Object) (*int32, error) {
		ss := obj.(*apps.StatefulSet)
		if ss.Spec.Replicas == nil {
			ss.Spec.Replicas = new(int32)
		}
		return ss.Spec.Replicas, nil
	},
	StatusReplicas: func(obj runtime.Object) int32 { return obj.(*apps.StatefulSet).Status.Replicas },
	Selector: func(obj runtime.Object) (string, error) {
		return workload.SelectorString(obj.(*apps.StatefulSet).Spec.Selector)
	},
}

var rollbackAccessor = rollback.Accessor{
	Resource:    apps.Resource("statefulsets/rollback"),
	Kind:        "StatefulSetRollback",
	NewRollback: func() runtime.Object { return &apps.StatefulSetRollback{} },
	Request: func(obj runtime.Object) (string, int64, field.ErrorList) {
		r := obj.(*apps.StatefulSetRollback)
		return r.Name, r.ToRevision, validation.ValidateStatefulSetRollback(r)
	},
	Template: func(obj runtime.Object) *corev1.PodTemplateSpec { return &obj.(*apps.StatefulSet).Spec.Template },
}
