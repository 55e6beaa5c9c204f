package resource

import (
	"fmt"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	registryrest "k8s.io/apiserver/pkg/registry/rest"
	genericapiserver "k8s.io/apiserver/pkg/server"

	"github.com/kruise-native/kruise-native/pkg/registry/fieldsjson"
)

// Install builds every endpoint of kinds and groups them into one APIGroupInfo per
// API group, with each version's resource map, ready for InstallAPIGroup. A resource
// is served in each of its Versions from the same storage: the hub type is converted
// on the way in and out.
func Install(deps Deps, codecs serializer.CodecFactory, kinds ...Descriptor) ([]*genericapiserver.APIGroupInfo, error) {
	groups := map[string]*genericapiserver.APIGroupInfo{}
	seen := map[string]bool{}
	for _, k := range kinds {
		gr := k.GroupResource()
		if seen[gr.String()] {
			return nil, fmt.Errorf("resource %s described twice", gr)
		}
		seen[gr.String()] = true
		if len(k.ServedVersions()) == 0 {
			return nil, fmt.Errorf("resource %s has no served versions", gr)
		}
		endpoints, err := k.Endpoints(deps)
		if err != nil {
			return nil, err
		}
		info, ok := groups[gr.Group]
		if !ok {
			g := genericapiserver.NewDefaultAPIGroupInfo(gr.Group, deps.Scheme, metav1.ParameterCodec, codecs)
			// JSON without re-scanning managedFields (fieldsjson): same bytes, half the
			// encoding time of a list.
			g.NegotiatedSerializer = fieldsjson.NegotiatedSerializer(g.NegotiatedSerializer)
			info = &g
			groups[gr.Group] = info
		}
		for _, v := range k.ServedVersions() {
			m := info.VersionedResourcesStorageMap[v]
			if m == nil {
				m = map[string]registryrest.Storage{}
				info.VersionedResourcesStorageMap[v] = m
			}
			for path, storage := range endpoints.Paths(gr.Resource) {
				m[path] = storage
			}
		}
	}
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]*genericapiserver.APIGroupInfo, 0, len(names))
	for _, name := range names {
		info := groups[name]
		if len(info.PrioritizedVersions) == 0 {
			return nil, fmt.Errorf("group %s is not installed in the scheme", name)
		}
		out = append(out, info)
	}
	return out, nil
}
