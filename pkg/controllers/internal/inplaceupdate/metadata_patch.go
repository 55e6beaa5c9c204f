package inplaceupdate

import (
	"encoding/json"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MetadataPatch is a change of pod labels and annotations: keys to set and keys to remove.
//
// On the wire (in the grace annotation) it is what OpenKruise stores in UpdateSpec's
// []byte metaDataPatch: the base64 of a strategic merge patch
// {"metadata":{"labels":{"k":"v","gone":null},"annotations":{...}}}.
type MetadataPatch struct {
	Labels            map[string]string
	RemoveLabels      []string
	Annotations       map[string]string
	RemoveAnnotations []string
}

func (p *MetadataPatch) empty() bool {
	return p == nil || len(p.Labels)+len(p.RemoveLabels)+len(p.Annotations)+len(p.RemoveAnnotations) == 0
}

// apply writes the patch into meta.
func (p *MetadataPatch) apply(meta *metav1.ObjectMeta) {
	if p == nil {
		return
	}
	for k, v := range p.Labels {
		meta.Labels = setKey(meta.Labels, k, v)
	}
	for _, k := range p.RemoveLabels {
		delete(meta.Labels, k)
	}
	for k, v := range p.Annotations {
		meta.Annotations = setKey(meta.Annotations, k, v)
	}
	for _, k := range p.RemoveAnnotations {
		delete(meta.Annotations, k)
	}
}

type wireMetadataPatch struct {
	Metadata struct {
		Labels      map[string]*string `json:"labels,omitempty"`
		Annotations map[string]*string `json:"annotations,omitempty"`
	} `json:"metadata"`
}

func toWire(set map[string]string, remove []string) map[string]*string {
	if len(set)+len(remove) == 0 {
		return nil
	}
	m := make(map[string]*string, len(set)+len(remove))
	for k, v := range set {
		m[k] = &v
	}
	for _, k := range remove {
		m[k] = nil
	}
	return m
}

func fromWire(m map[string]*string) (set map[string]string, remove []string) {
	for k, v := range m {
		if v == nil {
			remove = append(remove, k)
		} else {
			set = setKey(set, k, *v)
		}
	}
	sort.Strings(remove)
	return set, remove
}

// MarshalJSON writes the patch as OpenKruise does: a JSON string holding base64 bytes.
func (p MetadataPatch) MarshalJSON() ([]byte, error) {
	var w wireMetadataPatch
	w.Metadata.Labels = toWire(p.Labels, p.RemoveLabels)
	w.Metadata.Annotations = toWire(p.Annotations, p.RemoveAnnotations)
	raw, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	return json.Marshal(raw) // []byte → base64 string
}

// UnmarshalJSON reads what MarshalJSON (or OpenKruise) wrote.
func (p *MetadataPatch) UnmarshalJSON(data []byte) error {
	var raw []byte
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*p = MetadataPatch{}
	if len(raw) == 0 {
		return nil
	}
	var w wireMetadataPatch
	if err := json.Unmarshal(raw, &w); err != nil {
		return err
	}
	p.Labels, p.RemoveLabels = fromWire(w.Metadata.Labels)
	p.Annotations, p.RemoveAnnotations = fromWire(w.Metadata.Annotations)
	return nil
}
