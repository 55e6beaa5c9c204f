package apiserver

import (
	"fmt"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	registryrest "k8s.io/apiserver/pkg/registry/rest"
	genericapiserver "k8s.io/apiserver/pkg/server"

	"github.com/kruise-native/kruise-native/pkg/registry/fieldsjson"
)

// groupInfos groups the registry's storage (resource.Storage) into one APIGroupInfo per
// API group, in group order, ready for InstallAPIGroup: the server's part of serving a
// group (its versions' priority from the scheme, its serializer), where the registry's
// part is the storage of each path.
func groupInfos(s *runtime.Scheme, codecs serializer.CodecFactory, storage map[schema.GroupVersion]map[string]registryrest.Storage) ([]*genericapiserver.APIGroupInfo, error) {
	groups := map[string]*genericapiserver.APIGroupInfo{}
	for gv, paths := range storage {
		info, ok := groups[gv.Group]
		if !ok {
			g := genericapiserver.NewDefaultAPIGroupInfo(gv.Group, s, metav1.ParameterCodec, codecs)
			// JSON without re-scanning managedFields (fieldsjson): same bytes, half the
			// encoding time of a list.
			g.NegotiatedSerializer = fieldsjson.NegotiatedSerializer(g.NegotiatedSerializer)
			info = &g
			groups[gv.Group] = info
		}
		info.VersionedResourcesStorageMap[gv.Version] = paths
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
