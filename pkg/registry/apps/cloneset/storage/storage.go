// Package storage wires CloneSets to etcd: the main resource and its status and
// scale subresources share one generic Store.
package storage

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/cloneset"
	"github.com/kruise-native/kruise-native/pkg/registry/rollback"
	"github.com/kruise-native/kruise-native/pkg/registry/scale"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Storage is every endpoint of the clonesets resource.
type Storage struct {
	CloneSet *REST
	Status   *workload.StatusREST
	Scale    *scale.REST
	Rollback *rollback.REST
}

// NewStorage builds the clonesets endpoints on optsGetter's storage.
func NewStorage(typer runtime.ObjectTyper, optsGetter generic.RESTOptionsGetter, revisions rollback.RevisionLister) (Storage, error) {
	store := &genericregistry.Store{
		NewFunc:                   func() runtime.Object { return &apps.CloneSet{} },
		NewListFunc:               func() runtime.Object { return &apps.CloneSetList{} },
		DefaultQualifiedResource:  apps.Resource("clonesets"),
		SingularQualifiedResource: apps.Resource("cloneset"),

		CreateStrategy:      cloneset.NewStrategy(typer),
		UpdateStrategy:      cloneset.NewStrategy(typer),
		DeleteStrategy:      cloneset.NewStrategy(typer),
		ResetFieldsStrategy: cloneset.NewStrategy(typer),

		TableConvertor: cloneset.TableConvertor,
	}
	if err := store.CompleteWithOptions(&generic.StoreOptions{RESTOptions: optsGetter}); err != nil {
		return Storage{}, err
	}
	return Storage{
		CloneSet: &REST{store},
		Status:   workload.NewStatusREST(store, cloneset.NewStatusStrategy(typer)),
		Scale:    scale.NewREST(store, scaleAccessor),
		Rollback: rollback.NewREST(store, rollbackAccessor, revisions),
	}, nil
}

// REST is the main clonesets endpoint.
type REST struct {
	*genericregistry.Store
}

var (
	_ rest.ShortNamesProvider = &REST{}
	_ rest.CategoriesProvider = &REST{}
)

// ShortNames lets users type `kubectl get clone`.
func (r *REST) ShortNames() []string { return []string{"clone"} }

// Categories puts CloneSets in `kubectl get all` and `kubectl get kruise`.
func (r *REST) Categories() []string { return []string{"all", "kruise"} }

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
