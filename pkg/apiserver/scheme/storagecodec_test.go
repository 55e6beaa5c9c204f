package scheme

import (
	"bytes"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
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
		{&apps.NodeImage{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}, "apps.kruise.io/v1alpha1"},
		{&apps.ImagePullJob{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}}, "apps.kruise.io/v1alpha1"},
		{&apps.ImageListPullJob{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}}, "apps.kruise.io/v1alpha1"},
		{&apps.ContainerRecreateRequest{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}}, "apps.kruise.io/v1alpha1"},
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
