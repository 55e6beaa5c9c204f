// Package storage wires ImageListPullJobs to etcd: the main resource and its status subresource
// share one generic Store.
package storage

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/generic"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/imagelistpulljob"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Storage is every endpoint of the imagelistpulljobs resource.
type Storage struct {
	ImageListPullJob *workload.REST
	Status           *workload.StatusREST
}

// NewStorage builds the imagelistpulljobs endpoints on optsGetter's storage.
func NewStorage(typer runtime.ObjectTyper, optsGetter generic.RESTOptionsGetter) (Storage, error) {
	main, status, err := workload.NewRESTWithStatus(workload.Resource{
		Plural:      apps.Resource("imagelistpulljobs"),
		Singular:    apps.Resource("imagelistpulljob"),
		NewFunc:     func() runtime.Object { return &apps.ImageListPullJob{} },
		NewListFunc: func() runtime.Object { return &apps.ImageListPullJobList{} },
		Strategy:    imagelistpulljob.NewStrategy(typer),
		Table:       imagelistpulljob.TableConvertor,
		ShortNames:  nil,
		Categories:  []string{"kruise"},
	}, imagelistpulljob.NewStatusStrategy(typer), optsGetter)
	if err != nil {
		return Storage{}, err
	}
	return Storage{ImageListPullJob: main, Status: status}, nil
}
