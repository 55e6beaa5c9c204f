// Package storage wires NodeImages to etcd: the main resource and its status subresource
// share one generic Store, which the read-only pullsecrets subresource reads too.
package storage

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/generic"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/nodeimage"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/nodeimage/pullsecrets"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

// Storage is every endpoint of the nodeimages resource.
type Storage struct {
	NodeImage   *workload.REST
	Status      *workload.StatusREST
	PullSecrets *pullsecrets.REST
}

// NewStorage builds the nodeimages endpoints on optsGetter's storage; pull secrets are
// read from kube-apiserver with secrets.
func NewStorage(typer runtime.ObjectTyper, optsGetter generic.RESTOptionsGetter, secrets pullsecrets.SecretReader) (Storage, error) {
	main, status, err := workload.NewRESTWithStatus(workload.Resource{
		Plural:      apps.Resource("nodeimages"),
		Singular:    apps.Resource("nodeimage"),
		NewFunc:     func() runtime.Object { return &apps.NodeImage{} },
		NewListFunc: func() runtime.Object { return &apps.NodeImageList{} },
		Strategy:    nodeimage.NewStrategy(typer),
		Table:       nodeimage.TableConvertor,
		ShortNames:  nil,
		Categories:  []string{"kruise"},
	}, nodeimage.NewStatusStrategy(typer), optsGetter)
	if err != nil {
		return Storage{}, err
	}
	return Storage{NodeImage: main, Status: status, PullSecrets: pullsecrets.NewREST(main.Store, secrets)}, nil
}
