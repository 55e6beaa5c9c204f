package scheme

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// storageVersioner stores every kind of every group the scheme serves in the group's
// most preferred version that has the kind: CloneSet, StatefulSet, NodeImage... as
// v1beta1, a kind OpenKruise only has in v1alpha1 as v1alpha1.
// A new group or version needs no change here, only its version priority in its
// install package.
type storageVersioner struct{ scheme *runtime.Scheme }

var _ runtime.GroupVersioner = storageVersioner{}

func (v storageVersioner) KindForGroupVersionKinds(kinds []schema.GroupVersionKind) (schema.GroupVersionKind, bool) {
	for _, k := range kinds {
		for _, gv := range v.scheme.PrioritizedVersionsForGroup(k.Group) {
			if gvk := gv.WithKind(k.Kind); v.scheme.Recognizes(gvk) {
				return gvk, true
			}
		}
	}
	return schema.GroupVersionKind{}, false
}

func (storageVersioner) Identifier() string { return "kruise-storage-versions" }

// StorageVersioner is the versioner objects of s are stored with.
func StorageVersioner(s *runtime.Scheme) runtime.GroupVersioner { return storageVersioner{s} }

// NewStorageCodec encodes objects for etcd as protobuf in their storage version and
// decodes whatever is stored (protobuf, or JSON written by an older server) to the hub.
func NewStorageCodec() (runtime.Codec, runtime.GroupVersioner, error) {
	info, ok := runtime.SerializerInfoForMediaType(Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		return nil, nil, fmt.Errorf("no serializer for %s", runtime.ContentTypeProtobuf)
	}
	versioner := StorageVersioner(Scheme)
	return Codecs.CodecForVersions(info.Serializer, Codecs.UniversalDeserializer(), versioner, runtime.InternalGroupVersioner), versioner, nil
}
