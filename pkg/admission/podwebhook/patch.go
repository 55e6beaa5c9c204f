package podwebhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// jsonPatchOp is one RFC 6902 operation.
type jsonPatchOp struct {
	Op    string      `json:"op"`
	Path  string      `json:"path"`
	Value interface{} `json:"value,omitempty"`
}

// patchedSections are the parts of a pod the mutating handlers may change; status is
// the kubelet's, and kube-apiserver drops it from a create anyway.
var patchedSections = []string{"metadata", "spec"}

// podPatch returns the JSON patch from original to mutated: the one patch of a chain
// of mutating handlers, whichever fields they changed. Each changed field of metadata
// and spec is written whole with "add", which sets a missing member and replaces an
// existing one, so the patch applies whatever the pod held there; a field a handler
// emptied is removed. Both pods are compared as this server encodes them, so a field
// the handlers left alone never shows up as a change.
func podPatch(original, mutated *corev1.Pod) ([]byte, error) {
	before, err := podSections(original)
	if err != nil {
		return nil, err
	}
	after, err := podSections(mutated)
	if err != nil {
		return nil, err
	}
	var ops []jsonPatchOp
	for _, section := range patchedSections {
		b, a := before[section], after[section]
		for _, field := range unionKeys(b, a) {
			path := "/" + section + "/" + escapePointer(field)
			old, had := b[field]
			now, has := a[field]
			switch {
			case !has:
				ops = append(ops, jsonPatchOp{Op: "remove", Path: path})
			case !had || !bytes.Equal(old, now):
				ops = append(ops, jsonPatchOp{Op: "add", Path: path, Value: now})
			}
		}
	}
	if len(ops) == 0 {
		return nil, nil
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return nil, fmt.Errorf("encoding the pod patch: %w", err)
	}
	return data, nil
}

// podSections returns the fields of each patched section, JSON-encoded. encoding/json
// writes struct fields in order and map keys sorted, so equal values encode equally.
func podSections(pod *corev1.Pod) (map[string]map[string]json.RawMessage, error) {
	data, err := json.Marshal(pod)
	if err != nil {
		return nil, fmt.Errorf("encoding the pod: %w", err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("decoding the encoded pod: %w", err)
	}
	out := map[string]map[string]json.RawMessage{}
	for _, section := range patchedSections {
		fields := map[string]json.RawMessage{}
		if raw, ok := top[section]; ok {
			if err := json.Unmarshal(raw, &fields); err != nil {
				return nil, fmt.Errorf("decoding the pod's %s: %w", section, err)
			}
		}
		out[section] = fields
	}
	return out, nil
}

func unionKeys(a, b map[string]json.RawMessage) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// escapePointer escapes a key as an RFC 6901 reference token.
func escapePointer(key string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}
