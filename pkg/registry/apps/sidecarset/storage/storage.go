// Package storage wires SidecarSets to etcd: the main resource and its status
// subresource share one generic Store.
package storage

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/generic"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/sidecarset"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Storage is every endpoint of the sidecarsets resource.
type Storage struct {
	SidecarSet *workload.REST
	Status     *workload.StatusREST
}

// NewStorage builds the sidecarsets endpoints on optsGetter's storage.
func NewStorage(typer runtime.ObjectTyper, optsGetter generic.RESTOptionsGetter) (Storage, error) {
	main, status, err := workload.NewRESTWithStatus(workload.Resource{
		Plural:      apps.Resource("sidecarsets"),
		Singular:    apps.Resource("sidecarset"),
		NewFunc:     func() runtime.Object { return &apps.SidecarSet{} },
		NewListFunc: func() runtime.Object { return &apps.SidecarSetList{} },
		Strategy:    sidecarset.NewStrategy(typer),
		Table:       sidecarset.TableConvertor,
		// OpenKruise gives SidecarSets no short name.
		ShortNames: nil,
		Categories: []string{"kruise"},
	}, sidecarset.NewStatusStrategy(typer), optsGetter)
	if err != nil {
		return Storage{}, err
	}
	return Storage{SidecarSet: main, Status: status}, nil
}
