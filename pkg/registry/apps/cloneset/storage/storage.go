// Package storage wires CloneSets to etcd: the main resource and its status and
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
	"github.com/kruise-native/kruise-native/pkg/registry/apps/cloneset"
	"github.com/kruise-native/kruise-native/pkg/registry/rollback"
	"github.com/kruise-native/kruise-native/pkg/registry/scale"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Storage is every endpoint of the clonesets resource.
type Storage struct {
	CloneSet *workload.REST
	Status   *workload.StatusREST
	Scale    *scale.REST
	Rollback *rollback.REST
}

// NewStorage builds the clonesets endpoints on optsGetter's storage.
func NewStorage(typer runtime.ObjectTyper, optsGetter generic.RESTOptionsGetter, revisions rollback.RevisionLister) (Storage, error) {
	main, err := workload.NewREST(workload.Resource{
		Plural:      apps.Resource("clonesets"),
		Singular:    apps.Resource("cloneset"),
		NewFunc:     func() runtime.Object { return &apps.CloneSet{} },
		NewListFunc: func() runtime.Object { return &apps.CloneSetList{} },
		Strategy:    cloneset.NewStrategy(typer),
		Table:       cloneset.TableConvertor,
		ShortNames:  []string{"clone"},
		Categories:  []string{"all", "kruise"},
	}, optsGetter)
	if err != nil {
		return Storage{}, err
	}
	return Storage{
		CloneSet: main,
		Status:   workload.NewStatusREST(main.Store, cloneset.NewStatusStrategy(typer)),
		Scale:    scale.NewREST(main.Store, scaleAccessor),
		Rollback: rollback.NewREST(main.Store, rollbackAccessor, revisions),
	}, nil
}

var scaleAccessor = scale.Accessor{
	Resource: apps.Resource("clonesets/scale"),
	Versions: []schema.GroupVersion{
		{Group: apps.GroupName, Version: "v1beta1"},
		{Group: apps.GroupName, Version: "v1alpha1"},
	},
	SpecReplicas: func(obj runtime.Object) (*int32, error) {
		cs := obj.(*apps.CloneSet)
		if cs.Spec.Replicas == nil {
			cs.Spec.Replicas = new(int32)
		}
		return cs.Spec.Replicas, nil
	},
	StatusReplicas: func(obj runtime.Object) int32 { return obj.(*apps.CloneSet).Status.Replicas },
	Selector: func(obj runtime.Object) (string, error) {
		return workload.SelectorString(obj.(*apps.CloneSet).Spec.Selector)
	},
}

var rollbackAccessor = rollback.Accessor{
	Resource:    apps.Resource("clonesets/rollback"),
	Kind:        "CloneSetRollback",
	NewRollback: func() runtime.Object { return &apps.CloneSetRollback{} },
	Request: func(obj runtime.Object) (string, int64, field.ErrorList) {
		r := obj.(*apps.CloneSetRollback)
		return r.Name, r.ToRevision, validation.ValidateCloneSetRollback(r)
	},
	Template: func(obj runtime.Object) *corev1.PodTemplateSpec { return &obj.(*apps.CloneSet).Spec.Template },
}
