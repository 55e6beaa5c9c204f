// Package registrytest gives registry tests real etcd-backed storage encoded exactly as
// kruise-apiserver stores objects (protobuf, in each kind's storage version).
package registrytest

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/generic"
	etcd3testing "k8s.io/apiserver/pkg/storage/etcd3/testing"

	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
)

// NewRESTOptions starts an etcd server for the test and returns storage options for
// one resource. The server stops when the test ends.
func NewRESTOptions(t *testing.T, resource schema.GroupResource) generic.RESTOptions {
	t.Helper()
	codec, versioner, err := scheme.NewStorageCodec()
	if err != nil {
		t.Fatalf("storage codec: %v", err)
	}
	return NewRESTOptionsWithCodec(t, resource, codec, versioner)
}

// NewRESTOptionsWithCodec is NewRESTOptions for types kruise-apiserver's scheme does
// not have (test-only kinds), stored with codec.
func NewRESTOptionsWithCodec(t *testing.T, resource schema.GroupResource, codec runtime.Codec, versioner runtime.GroupVersioner) generic.RESTOptions {
	t.Helper()
	server, cfg := etcd3testing.NewUnsecuredEtcd3TestClientServer(t)
	t.Cleanup(func() { server.Terminate(t) })
	cfg.Codec, cfg.EncodeVersioner = codec, versioner
	return generic.RESTOptions{
		StorageConfig:           cfg.ForResource(resource),
		Decorator:               generic.UndecoratedStorage,
		DeleteCollectionWorkers: 1,
		ResourcePrefix:          resource.Group + "/" + resource.Resource,
	}
}

// OptionsGetter hands out the same options for every resource.
type OptionsGetter generic.RESTOptions

// GetRESTOptions implements generic.RESTOptionsGetter.
func (o OptionsGetter) GetRESTOptions(_ schema.GroupResource, _ runtime.Object) (generic.RESTOptions, error) {
	return generic.RESTOptions(o), nil
}
