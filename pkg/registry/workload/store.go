package workload

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
)

// Resource describes a workload resource's main endpoint.
type Resource struct {
	Plural, Singular     schema.GroupResource
	NewFunc, NewListFunc func() runtime.Object
	Strategy             Strategy
	Table                rest.TableConvertor
	ShortNames           []string
	Categories           []string
}

// REST is a workload's main endpoint: the generic Store plus discovery details.
type REST struct {
	*genericregistry.Store
	shortNames, categories []string
}

var (
	_ rest.ShortNamesProvider = &REST{}
	_ rest.CategoriesProvider = &REST{}
)

// ShortNames are the names kubectl accepts besides the plural (e.g. `kubectl get clone`).
func (r *REST) ShortNames() []string { return r.shortNames }

// Categories put the resource in `kubectl get kruise` (never in `all`: registrytest's
// conformance says why).
func (r *REST) Categories() []string { return r.categories }

// NewREST builds the main endpoint on optsGetter's storage.
func NewREST(res Resource, optsGetter generic.RESTOptionsGetter) (*REST, error) {
	store := &genericregistry.Store{
		NewFunc:                   res.NewFunc,
		NewListFunc:               res.NewListFunc,
		DefaultQualifiedResource:  res.Plural,
		SingularQualifiedResource: res.Singular,
		CreateStrategy:            res.Strategy,
		UpdateStrategy:            res.Strategy,
		DeleteStrategy:            res.Strategy,
		ResetFieldsStrategy:       res.Strategy,
		TableConvertor:            res.Table,
	}
	if err := store.CompleteWithOptions(&generic.StoreOptions{RESTOptions: optsGetter}); err != nil {
		return nil, err
	}
	return &REST{Store: store, shortNames: res.ShortNames, categories: res.Categories}, nil
}

// NewRESTWithStatus builds a resource's main endpoint and its status subresource.
func NewRESTWithStatus(res Resource, status StatusStrategy, optsGetter generic.RESTOptionsGetter) (*REST, *StatusREST, error) {
	main, err := NewREST(res, optsGetter)
	if err != nil {
		return nil, nil, err
	}
	return main, NewStatusREST(main.Store, status), nil
}
