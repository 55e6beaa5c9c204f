package fieldsjson_test

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/apitesting/fuzzer"
	"k8s.io/apimachinery/pkg/api/meta"
	metafuzzer "k8s.io/apimachinery/pkg/apis/meta/fuzzer"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/registry/fieldsjson"
)

var now = metav1.NewTime(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))

func fields(raw string) *metav1.FieldsV1 {
	f := &metav1.FieldsV1{}
	f.SetRawBytes([]byte(raw))
	return f
}

// managedFields cases: what the field manager writes, and the shapes that must fall
// back to encoding/json (which then decides the bytes, or the error).
var managedFields = map[string][]metav1.ManagedFieldsEntry{
	"none": nil,
	"field manager's": {
		{Manager: "kubectl-client-side-apply", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "apps.kruise.io/v1alpha1",
			Time: &now, FieldsType: "FieldsV1", FieldsV1: fields(`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"main\"}":{".":{},"f:image":{}}}}}}}`)},
		{Manager: "kruise-controller", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "apps.kruise.io/v1alpha1",
			Time: &now, FieldsType: "FieldsV1", FieldsV1: fields(`{"f:status":{"f:replicas":{}}}`), Subresource: "status"},
	},
	"sparse entry":        {{Manager: "m"}, {}},
	"escaped strings":     {{Manager: "it's <mine> & \"yours\" \u00e9\u2028", Operation: "Apply", FieldsV1: fields(`{"f:a":{}}`)}},
	"html in fields":      {{Manager: "m", FieldsV1: fields(`{"f:metadata":{"f:annotations":{"f:a<b":{}}}}`)}},
	"separator in fields": {{Manager: "m", FieldsV1: fields("{\"f:a\u2028\":{}}")}},
	"not compact":         {{Manager: "m", FieldsV1: fields(`{"f:a": {}}`)}},
	"null fields":         {{Manager: "m", FieldsV1: fields(`null`)}},
	"empty fields":        {{Manager: "m", FieldsV1: &metav1.FieldsV1{}}},
	"zero time":           {{Manager: "m", Time: &metav1.Time{}, FieldsV1: fields(`{}`)}},
}

func codecs(streaming bool) serializer.CodecFactory {
	if streaming {
		return serializer.NewCodecFactory(scheme.Scheme, serializer.WithStreamingCollectionEncodingToJSON())
	}
	return serializer.NewCodecFactory(scheme.Scheme)
}

func jsonSerializer(t testing.TB, ns runtime.NegotiatedSerializer) runtime.Serializer {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(ns.SupportedMediaTypes(), runtime.ContentTypeJSON)
	if !ok {
		t.Fatal("no JSON serializer")
	}
	return info.Serializer
}

// Every served kind and its list, random content, every managedFields case: the bytes
// equal apimachinery's JSON serializer's (streaming lists or not), errors included.
func TestSameBytesAsAPIMachinery(t *testing.T) {
	f := fuzzer.FuzzerFor(metafuzzer.Funcs, rand.NewSource(1), codecs(false)).NilChance(.3).NumElements(1, 2)
	for _, streaming := range []bool{false, true} {
		cf := codecs(streaming)
		inner := jsonSerializer(t, cf)
		ours := jsonSerializer(t, fieldsjson.NegotiatedSerializer(cf))
		compare(t, "benchmark list", inner, ours, cloneSetList(3))
		checked := 0
		for gvk := range scheme.Scheme.AllKnownTypes() {
			if !strings.HasSuffix(gvk.Group, "kruise.io") || gvk.Version == runtime.APIVersionInternal {
				continue
			}
			for name, mf := range managedFields {
				for range 3 {
					obj, err := scheme.Scheme.New(gvk)
					if err != nil {
						t.Fatal(err)
					}
					f.Fill(obj)
					obj.GetObjectKind().SetGroupVersionKind(gvk)
					setManagedFields(obj, mf)
					compare(t, gvk.String()+" "+name, inner, ours, obj)
					checked++
				}
			}
		}
		if checked < 100 {
			t.Fatalf("only %d objects checked", checked)
		}
	}
}

func setManagedFields(obj runtime.Object, mf []metav1.ManagedFieldsEntry) {
	set := func(o runtime.Object) error {
		a, err := meta.Accessor(o)
		if err != nil {
			return err
		}
		a.SetManagedFields(mf)
		return nil
	}
	// Options and WatchEvent (registered in every group version) have no metadata:
	// they are compared as they are.
	if meta.IsListType(obj) {
		_ = meta.EachListItem(obj, set)
		return
	}
	_ = set(obj)
}

func compare(t *testing.T, what string, inner, ours runtime.Serializer, obj runtime.Object) {
	t.Helper()
	var want, got bytes.Buffer
	wantErr := inner.Encode(obj, &want)
	gotErr := ours.Encode(obj, &got)
	if (wantErr != nil) != (gotErr != nil) {
		t.Fatalf("%s: error %v, apimachinery's %v", what, gotErr, wantErr)
	}
	if wantErr == nil && !bytes.Equal(want.Bytes(), got.Bytes()) {
		g, w := got.Bytes(), want.Bytes()
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		from := max(0, i-200)
		t.Fatalf("%s: bytes differ at %d\n got: ...%s\nwant: ...%s", what, i, g[from:min(len(g), i+200)], w[from:min(len(w), i+200)])
	}
}

// A cached object (the watch cache hands these to the encoder) is encoded once per
// serializer identity, by ours, with the same bytes.
func TestCacheableObject(t *testing.T) {
	cs := &v1alpha1.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "n", ManagedFields: managedFields["field manager's"]}}
	cs.SetGroupVersionKind(v1alpha1.SchemeGroupVersion.WithKind("CloneSet"))
	ours := jsonSerializer(t, fieldsjson.NegotiatedSerializer(codecs(false)))
	co := &cacheable{obj: cs}
	var got bytes.Buffer
	if err := ours.Encode(co, &got); err != nil {
		t.Fatal(err)
	}
	if co.id != ours.Identifier() {
		t.Fatalf("cached under %q, want %q", co.id, ours.Identifier())
	}
	want, err := json.Marshal(cs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), append(want, '\n')) {
		t.Fatalf("got %s\nwant %s", got.Bytes(), want)
	}
}

type cacheable struct {
	runtime.Object
	obj runtime.Object
	id  runtime.Identifier
}

func (c *cacheable) CacheEncode(id runtime.Identifier, encode func(runtime.Object, io.Writer) error, w io.Writer) error {
	c.id = id
	return encode(c.obj, w)
}

func (c *cacheable) GetObject() runtime.Object { return c.obj }

// A list starts with a write of "{" alone: kube's response writer recognizes a stream by
// a first write of at most 4 bytes and then buffers to decide on gzip.
func TestListFirstWrite(t *testing.T) {
	ours := jsonSerializer(t, fieldsjson.NegotiatedSerializer(codecs(true)))
	w := &writes{}
	if err := ours.Encode(cloneSetList(2), w); err != nil {
		t.Fatal(err)
	}
	if len(w.sizes) < 2 || w.sizes[0] != 1 {
		t.Fatalf("write sizes %v, want a first write of 1 byte", w.sizes)
	}
}

type writes struct{ sizes []int }

func (w *writes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return len(p), nil
}
