package nodeimage

import (
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/kruise-native/kruise-native/pkg/registry/apps/nodeimage/pullsecrets"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// pullSecretsSubresource serves nodeimages/<node>/pullsecrets on the NodeImage store.
func pullSecretsSubresource(store *genericregistry.Store, deps resource.Deps) (map[string]rest.Storage, error) {
	return map[string]rest.Storage{"pullsecrets": pullsecrets.NewREST(store, deps.Secret)}, nil
}
