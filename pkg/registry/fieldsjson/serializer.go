package fieldsjson

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
)

// NegotiatedSerializer serves JSON through Serializer and everything else (protobuf,
// YAML, decoding, conversion) as ns does.
func NegotiatedSerializer(ns runtime.NegotiatedSerializer) runtime.NegotiatedSerializer {
	infos := append([]runtime.SerializerInfo(nil), ns.SupportedMediaTypes()...)
	for i := range infos {
		if infos[i].MediaType != runtime.ContentTypeJSON {
			continue
		}
		infos[i].Serializer = Serializer(infos[i].Serializer)
		if s := infos[i].StreamSerializer; s != nil {
			stream := *s
			stream.Serializer = Serializer(stream.Serializer)
			infos[i].StreamSerializer = &stream
		}
	}
	return negotiated{NegotiatedSerializer: ns, infos: infos}
}

type negotiated struct {
	runtime.NegotiatedSerializer
	infos []runtime.SerializerInfo
}

func (n negotiated) SupportedMediaTypes() []runtime.SerializerInfo { return n.infos }

// Serializer wraps the apimachinery JSON serializer inner (not pretty, not YAML):
// objects and lists of objects with managedFields are written by this package, with
// bytes equal to inner's; anything else is inner's.
func Serializer(inner runtime.Serializer) runtime.Serializer {
	return &serializer{Serializer: inner, id: runtime.Identifier(string(inner.Identifier()) + ";fieldsjson")}
}

type serializer struct {
	runtime.Serializer
	id runtime.Identifier
}

func (s *serializer) Identifier() runtime.Identifier { return s.id }

func (s *serializer) Encode(obj runtime.Object, w io.Writer) error {
	if co, ok := obj.(runtime.CacheableObject); ok {
		return co.CacheEncode(s.id, s.encode, w)
	}
	return s.encode(obj, w)
}

func (s *serializer) encode(obj runtime.Object, w io.Writer) error {
	if items, ok := listItems(obj); ok {
		return s.encodeList(obj, items, w)
	}
	buf, ok, err := appendObject(nil, obj)
	if err != nil {
		return err
	}
	if !ok {
		return s.Serializer.Encode(obj, w)
	}
	_, err = w.Write(append(buf, '\n')) // as json.Encoder ends a value
	return err
}

// listItems returns the Items slice of a typed list (TypeMeta, ListMeta, Items as its
// only fields, the layout of every generated list) whose items this package encodes.
func listItems(obj runtime.Object) (reflect.Value, bool) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return reflect.Value{}, false
	}
	t := v.Elem().Type()
	if t.Kind() != reflect.Struct || t.NumField() != 3 || t.Field(2).Name != "Items" ||
		jsonName(t.Field(2)) != "items" || t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) {
		return reflect.Value{}, false
	}
	items := v.Elem().Field(2)
	if items.Kind() != reflect.Slice || items.IsNil() || items.Len() == 0 || metaField(items.Type().Elem()) < 0 {
		return reflect.Value{}, false
	}
	return items, true
}

// encodeList writes the list's envelope as encoding/json does (from a shallow copy with
// no items), then each item, one write per item as apimachinery's streaming encoder.
func (s *serializer) encodeList(obj runtime.Object, items reflect.Value, w io.Writer) error {
	empty := reflect.New(reflect.TypeOf(obj).Elem())
	empty.Elem().Set(reflect.ValueOf(obj).Elem())
	empty.Elem().Field(2).Set(reflect.MakeSlice(items.Type(), 0, 0))
	envelope, err := json.Marshal(empty.Interface())
	if err != nil {
		return err
	}
	const tail = `"items":[]}`
	if !bytes.HasSuffix(envelope, []byte(tail)) {
		return s.Serializer.Encode(obj, w)
	}
	// "{" alone first, as apimachinery's streaming encoder: kube's response writer takes a
	// first write of at most 4 bytes for a stream and buffers it to decide on gzip; a
	// longer first write under 128 KiB would send the whole list uncompressed.
	if _, err := w.Write(envelope[:1]); err != nil {
		return err
	}
	if _, err := w.Write(envelope[1 : len(envelope)-len(`]}`)]); err != nil {
		return err
	}
	var buf []byte
	for i := range items.Len() {
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, ',')
		}
		item := items.Index(i).Addr().Interface()
		var ok bool
		if buf, ok, err = appendObject(buf, item); err != nil {
			return err
		}
		if !ok {
			b, err := json.Marshal(item)
			if err != nil {
				return err
			}
			buf = append(buf, b...)
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	_, err = w.Write([]byte("]}\n"))
	return err
}
