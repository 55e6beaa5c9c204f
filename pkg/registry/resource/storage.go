package resource

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	registryrest "k8s.io/apiserver/pkg/registry/rest"
)

// Storage builds every endpoint of kinds and maps them by the group version that serves
// them and the path under it ("clonesets", "clonesets/status"), ready for the server to
// group (pkg/apiserver). A resource is served in each of its Versions from the same
// storage: the hub type is converted on the way in and out.
func Storage(deps Deps, kinds ...Descriptor) (map[schema.GroupVersion]map[string]registryrest.Storage, error) {
	out := map[schema.GroupVersion]map[string]registryrest.Storage{}
	seen := map[schema.GroupResource]bool{}
	for _, k := range kinds {
		gr := k.GroupResource()
		if seen[gr] {
			return nil, fmt.Errorf("resource %s described twice", gr)
		}
		seen[gr] = true
		if len(k.ServedVersions()) == 0 {
			return nil, fmt.Errorf("resource %s has no served versions", gr)
		}
		endpoints, err := k.Endpoints(deps)
		if err != nil {
			return nil, err
		}
		for _, v := range k.ServedVersions() {
			gv := schema.GroupVersion{Group: gr.Group, Version: v}
			m := out[gv]
			if m == nil {
				m = map[string]registryrest.Storage{}
				out[gv] = m
			}
			for path, storage := range endpoints.Paths(gr.Resource) {
				m[path] = storage
			}
		}
	}
	return out, nil
}
