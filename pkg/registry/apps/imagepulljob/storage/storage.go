// Package storage wires ImagePullJobs to etcd: the main resource and its status subresource
// share one generic Store.
package storage

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/generic"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/imagepulljob"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Storage is every endpoint of the imagepulljobs resource.
type Storage struct {
	ImagePullJob *workload.REST
	Status       *workload.StatusREST
}

// NewStorage builds the imagepulljobs endpoints on optsGetter's storage.
func NewStorage(typer runtime.ObjectTyper, optsGetter generic.RESTOptionsGetter) (Storage, error) {
	main, status, err := workload.NewRESTWithStatus(workload.Resource{
		Plural:      apps.Resource("imagepulljobs"),
		Singular:    apps.Resource("imagepulljob"),
		NewFunc:     func() runtime.Object { return &apps.ImagePullJob{} },
		NewListFunc: func() runtime.Object { return &apps.ImagePullJobList{} },
		Strategy:    imagepulljob.NewStrategy(typer),
		Table:       imagepulljob.TableConvertor,
		ShortNames:  nil,
		Categories:  []string{"kruise"},
	}, imagepulljob.NewStatusStrategy(typer), optsGetter)
	if err != nil {
		return Storage{}, err
	}
	return Storage{ImagePullJob: main, Status: status}, nil
}
