// Package annotationfield carries, through an annotation, hub fields that a served
// version has no place for, so that an object read and written back in that version
// loses nothing. The conversions of the versions use it.
package annotationfield

import (
	"encoding/json"
	"fmt"
	"maps"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Set returns a copy of annotations with key set to value. A copy, because the
// generated conversion shares the map with its input.
func Set(annotations map[string]string, key, value string) map[string]string {
	out := maps.Clone(annotations)
	if out == nil {
		out = map[string]string{}
	}
	out[key] = value
	return out
}

// SetJSON is Set with v encoded as JSON.
func SetJSON(annotations map[string]string, key string, v any) (map[string]string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding annotation %s: %w", key, err)
	}
	return Set(annotations, key, string(data)), nil
}

// Without returns a copy of annotations without key, nil when none is left.
func Without(annotations map[string]string, key string) map[string]string {
	out := maps.Clone(annotations)
	delete(out, key)
	if len(out) == 0 {
		return nil
	}
	return out
}

// GetJSON decodes the JSON under key into v; false when the annotation is absent. A
// value that does not parse is the client's input: an Invalid status error (4xx)
// naming the annotation of object name of kind, not a plain error, which the
// handlers answer with 500 when a patch or update converts after decoding.
func GetJSON(annotations map[string]string, key string, kind schema.GroupKind, name string, v any) (bool, error) {
	raw, ok := annotations[key]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return true, apierrors.NewInvalid(kind, name, field.ErrorList{field.Invalid(
			field.NewPath("metadata", "annotations").Key(key), raw,
			fmt.Sprintf("not the JSON this server writes: %v", err))})
	}
	return true, nil
}
