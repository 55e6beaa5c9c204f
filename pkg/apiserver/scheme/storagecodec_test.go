package scheme

import (
	"bytes"
	"reflect"
	"testing"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// Every kind is stored as protobuf in the newest version that has it, and reads back.
func TestStorageCodec(t *testing.T) {
	codec, _, err := NewStorageCodec()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		obj         runtime.Object
		wantVersion string
	}{
		{&apps.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}}, "apps.kruise.io/v1beta1"},
		{&apps.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}}, "apps.kruise.io/v1beta1"},
		{&apps.NodeImage{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}, "apps.kruise.io/v1beta1"},
		{&apps.ImagePullJob{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}}, "apps.kruise.io/v1beta1"},
		{&apps.ImageListPullJob{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}}, "apps.kruise.io/v1beta1"},
		{&apps.ContainerRecreateRequest{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}}, "apps.kruise.io/v1beta1"},
	}
	for _, tc := range cases {
		var buf bytes.Buffer
		if err := codec.Encode(tc.obj, &buf); err != nil {
			t.Errorf("%T: encode: %v", tc.obj, err)
			continue
		}
		raw := buf.Bytes()
		if !bytes.HasPrefix(raw, []byte{0x6b, 0x38, 0x73, 0x00}) {
			t.Errorf("%T: stored bytes are not protobuf: %q", tc.obj, raw[:min(len(raw), 16)])
			continue
		}
		unk := &runtime.Unknown{}
		if err := unk.Unmarshal(raw[4:]); err != nil {
			t.Errorf("%T: envelope: %v", tc.obj, err)
			continue
		}
		if unk.APIVersion != tc.wantVersion {
			t.Errorf("%T: stored as %s, want %s", tc.obj, unk.APIVersion, tc.wantVersion)
		}
		back, _, err := codec.Decode(raw, nil, nil)
		if err != nil {
			t.Errorf("%T: decode: %v", tc.obj, err)
			continue
		}
		if got, want := back.(metav1.Object).GetName(), tc.obj.(metav1.Object).GetName(); got != want {
			t.Errorf("%T: decoded name %q, want %q", tc.obj, got, want)
		}
		if reflect.TypeOf(back) != reflect.TypeOf(tc.obj) {
			t.Errorf("%T: decoded as %T, want the hub type", tc.obj, back)
		}
	}
}

// Objects an older server stored in v1alpha1 (before these kinds had v1beta1) still
// decode to the hub (defaulted, as every read is), v1beta1-only fields included when
// v1alpha1 carried them.
func TestStorageCodecReadsV1alpha1(t *testing.T) {
	codec, _, err := NewStorageCodec()
	if err != nil {
		t.Fatal(err)
	}
	info, ok := runtime.SerializerInfoForMediaType(Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		t.Fatal("no protobuf serializer")
	}
	old := Codecs.EncoderForVersion(info.Serializer, v1alpha1.SchemeGroupVersion)
	secrets := []apps.ReferenceObject{{Namespace: "ns", Name: "s"}}
	cases := []struct {
		obj   runtime.Object
		check func(runtime.Object) bool
	}{
		{&apps.NodeImage{ObjectMeta: metav1.ObjectMeta{Name: "node-1"},
			Spec:   apps.NodeImageSpec{Images: map[string]apps.ImageSpec{"nginx": {Tags: []apps.ImageTagSpec{{Tag: "1", PullSecrets: secrets}}}}},
			Status: apps.NodeImageStatus{Desired: 1, Pulling: 1, Waiting: 1}},
			func(o runtime.Object) bool {
				ni := o.(*apps.NodeImage)
				return ni.Status.Waiting == 1 && apiequality.Semantic.DeepEqual(ni.Spec.Images["nginx"].Tags[0].PullSecrets, secrets) &&
					len(ni.Annotations) == 0
			}},
		{&apps.ImagePullJob{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}, Spec: apps.ImagePullJobSpec{Image: "nginx:1"}},
			func(o runtime.Object) bool { return o.(*apps.ImagePullJob).Spec.Image == "nginx:1" }},
		{&apps.ImageListPullJob{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}, Spec: apps.ImageListPullJobSpec{Images: []string{"nginx:1"}}},
			func(o runtime.Object) bool { return len(o.(*apps.ImageListPullJob).Spec.Images) == 1 }},
		{&apps.ContainerRecreateRequest{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"},
			Spec: apps.ContainerRecreateRequestSpec{PodName: "p", Strategy: &apps.ContainerRecreateRequestStrategy{ForceRecreate: true}}},
			func(o runtime.Object) bool { return o.(*apps.ContainerRecreateRequest).Spec.Strategy.ForceRecreate }},
	}
	for _, tc := range cases {
		raw, err := runtime.Encode(old, tc.obj)
		if err != nil {
			t.Fatalf("%T: %v", tc.obj, err)
		}
		unk := &runtime.Unknown{}
		if err := unk.Unmarshal(raw[4:]); err != nil || unk.APIVersion != "apps.kruise.io/v1alpha1" {
			t.Fatalf("%T: written as %q (%v), want apps.kruise.io/v1alpha1", tc.obj, unk.APIVersion, err)
		}
		back, _, err := codec.Decode(raw, nil, nil)
		if err != nil {
			t.Fatalf("%T: decode: %v", tc.obj, err)
		}
		if reflect.TypeOf(back) != reflect.TypeOf(tc.obj) || !tc.check(back) {
			t.Errorf("%T: read back as %#v", tc.obj, back)
		}
	}
}
