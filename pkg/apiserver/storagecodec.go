package apiserver

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// storageVersions is the order in which a kind's storage version is chosen: the newest
// version that has the kind. CloneSet and StatefulSet are stored as v1beta1; kinds
// OpenKruise only has in v1alpha1 (NodeImage, ImagePullJob, ...) as v1alpha1.
var storageVersions = []schema.GroupVersion{v1beta1.SchemeGroupVersion, v1alpha1.SchemeGroupVersion}

// storageVersioner picks each apps.kruise.io kind's storage version from scheme.
type storageVersioner struct{ scheme *runtime.Scheme }

var _ runtime.GroupVersioner = storageVersioner{}

func (v storageVersioner) KindForGroupVersionKinds(kinds []schema.GroupVersionKind) (schema.GroupVersionKind, bool) {
	for _, k := range kinds {
		if k.Group != apps.GroupName {
			continue
		}
		for _, gv := range storageVersions {
			if gvk := gv.WithKind(k.Kind); v.scheme.Recognizes(gvk) {
				return gvk, true
			}
		}
	}
	return schema.GroupVersionKind{}, false
}

func (storageVersioner) Identifier() string { return "kruise-storage-versions" }

// StorageVersioner is the versioner objects are stored with.
func StorageVersioner() runtime.GroupVersioner { return storageVersioner{Scheme} }

// NewStorageCodec encodes objects for etcd as protobuf in their storage version and
// decodes whatever is stored (protobuf, or JSON written by an older server) to the hub.
func NewStorageCodec() (runtime.Codec, runtime.GroupVersioner, error) {
	info, ok := runtime.SerializerInfoForMediaType(Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		return nil, nil, fmt.Errorf("no serializer for %s", runtime.ContentTypeProtobuf)
	}
	versioner := StorageVersioner()
	return Codecs.CodecForVersions(info.Serializer, Codecs.UniversalDeserializer(), versioner, runtime.InternalGroupVersioner), versioner, nil
}
