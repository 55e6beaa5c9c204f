// Package fieldsjson encodes API objects to JSON with the same bytes as encoding/json,
// except that managedFields' FieldsV1 documents are copied as they are held instead of
// being re-scanned.
//
// encoding/json passes whatever a MarshalJSON method returns through its compactor,
// which scans every byte with its state machine. FieldsV1.MarshalJSON returns the raw
// document the field manager wrote, and in a JSON list of CloneSets those documents are
// about 45% of the bytes: the re-scan was half of the list's encoding time
// (test/bench/results/2026-11-22.md). The documents are valid JSON by construction: the
// field manager re-encodes managedFields from its parsed sets on every write, and what
// storage returns is what it wrote. So the scan proves nothing here.
package fieldsjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var (
	objectMetaType = reflect.TypeFor[metav1.ObjectMeta]()
	typeMetaType   = reflect.TypeFor[metav1.TypeMeta]()
	marshalerType  = reflect.TypeFor[json.Marshaler]()
	// emptyMetadata is how encoding/json writes a zero ObjectMeta under its key.
	emptyMetadata = func() []byte {
		b, err := json.Marshal(&metav1.ObjectMeta{})
		if err != nil {
			panic(err)
		}
		return append([]byte(`"metadata":`), b...)
	}()
	// managedFieldsLast: the splice below appends managedFields at the end of the
	// metadata object, which matches encoding/json only while it is ObjectMeta's last
	// JSON field (it is; a test pins it).
	managedFieldsLast = lastJSONField(objectMetaType) == "managedFields"
)

// layouts caches, per struct type, where its ObjectMeta is (-1: not a plain object).
var layouts sync.Map // reflect.Type -> int

// metaField returns the index of t's ObjectMeta field when t is laid out as every API
// object is: TypeMeta inline, then ObjectMeta under "metadata", and no MarshalJSON of
// its own. Then nothing encoded before "metadata" can contain the text `"metadata":`.
func metaField(t reflect.Type) int {
	if v, ok := layouts.Load(t); ok {
		return v.(int)
	}
	idx := -1
	if managedFieldsLast && t.Kind() == reflect.Struct && t.NumField() >= 2 &&
		!t.Implements(marshalerType) && !reflect.PointerTo(t).Implements(marshalerType) {
		tm, om := t.Field(0), t.Field(1)
		if tm.Type == typeMetaType && tm.Anonymous && om.Type == objectMetaType &&
			jsonName(om) == "metadata" {
			idx = 1
		}
	}
	layouts.Store(t, idx)
	return idx
}

// appendObject appends obj's JSON (no trailing newline) to buf. ok is false when obj
// is not one this package encodes (the caller uses encoding/json then).
func appendObject(buf []byte, obj any) (_ []byte, ok bool, _ error) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return buf, false, nil
	}
	elem := v.Elem()
	idx := metaField(elem.Type())
	if idx < 0 {
		return buf, false, nil
	}
	meta := elem.Field(idx).Addr().Interface().(*metav1.ObjectMeta)
	if len(meta.ManagedFields) == 0 || !rawFieldsCopyable(meta.ManagedFields) {
		return buf, false, nil
	}

	// The object without its metadata, then the metadata without managedFields: both
	// shallow copies, the cached object is shared and never written.
	rest := reflect.New(elem.Type())
	rest.Elem().Set(elem)
	rest.Elem().Field(idx).Set(reflect.Zero(objectMetaType))
	body, err := json.Marshal(rest.Interface())
	if err != nil {
		return buf, true, err
	}
	at := bytes.Index(body, emptyMetadata)
	if at < 0 {
		return buf, true, fmt.Errorf("encoding %T: no %s in its JSON", obj, emptyMetadata)
	}
	m := *meta
	m.ManagedFields = nil
	metaJSON, err := json.Marshal(&m)
	if err != nil {
		return buf, true, err
	}

	buf = append(buf, body[:at+len(`"metadata":`)]...)
	buf = append(buf, metaJSON[:len(metaJSON)-1]...) // without its closing brace
	if len(metaJSON) > 2 {
		buf = append(buf, ',')
	}
	buf = append(buf, `"managedFields":[`...)
	for i := range meta.ManagedFields {
		if i > 0 {
			buf = append(buf, ',')
		}
		if buf, err = appendManagedFieldsEntry(buf, &meta.ManagedFields[i]); err != nil {
			return buf, true, err
		}
	}
	buf = append(buf, "]}"...)
	buf = append(buf, body[at+len(emptyMetadata):]...)
	return buf, true, nil
}

// rawFieldsCopyable: every FieldsV1 is a JSON object that encoding/json would copy
// unchanged: it drops whitespace, and escapes <, >, & and U+2028/U+2029 (first byte
// 0xE2). The field manager writes none of those outside rare key values; when a
// document holds one, the caller falls back to encoding/json so that the bytes stay
// identical. IndexByte is vectorized: far cheaper than the compactor's per-byte state
// machine.
func rawFieldsCopyable(entries []metav1.ManagedFieldsEntry) bool {
	for i := range entries {
		f := entries[i].FieldsV1
		if f == nil {
			continue
		}
		raw := f.GetRawBytes()
		if len(raw) < 2 || raw[0] != '{' || raw[len(raw)-1] != '}' {
			return false // null, empty, CBOR or padded: encoding/json's business
		}
		for _, c := range []byte{'<', '>', '&', 0xE2, ' ', '\n', '\t', '\r'} {
			if bytes.IndexByte(raw, c) >= 0 {
				return false
			}
		}
	}
	return true
}

// appendManagedFieldsEntry writes e as encoding/json does, field order and omitempty
// included, with FieldsV1 copied.
func appendManagedFieldsEntry(buf []byte, e *metav1.ManagedFieldsEntry) ([]byte, error) {
	first := true
	key := func(name string) {
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = append(buf, '"')
		buf = append(buf, name...)
		buf = append(buf, '"', ':')
	}
	str := func(name, s string) error {
		if s == "" {
			return nil
		}
		key(name)
		var err error
		buf, err = appendString(buf, s)
		return err
	}
	buf = append(buf, '{')
	if err := str("manager", e.Manager); err != nil {
		return buf, err
	}
	if err := str("operation", string(e.Operation)); err != nil {
		return buf, err
	}
	if err := str("apiVersion", e.APIVersion); err != nil {
		return buf, err
	}
	if e.Time != nil {
		t, err := e.Time.MarshalJSON() // compact already: "null" or a quoted RFC 3339 time
		if err != nil {
			return buf, err
		}
		key("time")
		buf = append(buf, t...)
	}
	if err := str("fieldsType", e.FieldsType); err != nil {
		return buf, err
	}
	if e.FieldsV1 != nil {
		key("fieldsV1")
		buf = append(buf, e.FieldsV1.GetRawBytes()...)
	}
	if err := str("subresource", e.Subresource); err != nil {
		return buf, err
	}
	return append(buf, '}'), nil
}

// appendString quotes s as encoding/json does: printable ASCII without what it escapes
// is copied, anything else goes through encoding/json.
func appendString(buf []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, err := json.Marshal(s)
			return append(buf, b...), err
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"'), nil
}

func jsonName(f reflect.StructField) string {
	name, _, _ := bytes.Cut([]byte(f.Tag.Get("json")), []byte(","))
	return string(name)
}

func lastJSONField(t reflect.Type) string {
	for i := t.NumField() - 1; i >= 0; i-- {
		if n := jsonName(t.Field(i)); n != "" && n != "-" {
			return n
		}
	}
	return ""
}
