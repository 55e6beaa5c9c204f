// Package storage wires ContainerRecreateRequests to etcd: the main resource and its status subresource
// share one generic Store.
package storage

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/generic"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/containerrecreaterequest"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Storage is every endpoint of the containerrecreaterequests resource.
type Storage struct {
	ContainerRecreateRequest *workload.REST
	Status                   *workload.StatusREST
}

// NewStorage builds the containerrecreaterequests endpoints on optsGetter's storage.
func NewStorage(typer runtime.ObjectTyper, optsGetter generic.RESTOptionsGetter) (Storage, error) {
	main, status, err := workload.NewRESTWithStatus(workload.Resource{
		Plural:      apps.Resource("containerrecreaterequests"),
		Singular:    apps.Resource("containerrecreaterequest"),
		NewFunc:     func() runtime.Object { return &apps.ContainerRecreateRequest{} },
		NewListFunc: func() runtime.Object { return &apps.ContainerRecreateRequestList{} },
		Strategy:    containerrecreaterequest.NewStrategy(typer),
		Table:       containerrecreaterequest.TableConvertor,
		ShortNames:  []string{"crr"},
		Categories:  []string{"kruise"},
	}, containerrecreaterequest.NewStatusStrategy(typer), optsGetter)
	if err != nil {
		return Storage{}, err
	}
	return Storage{ContainerRecreateRequest: main, Status: status}, nil
}
