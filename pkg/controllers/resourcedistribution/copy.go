package resourcedistribution

import (
	"bytes"
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	rdcontract "github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// Object is a copy: a *corev1.ConfigMap or a *corev1.Secret.
type Object interface {
	metav1.Object
	runtime.Object
}

var distributionKind = v1alpha1.SchemeGroupVersion.WithKind("ResourceDistribution")

// Source is what every copy of one distribution is made from.
type Source struct {
	Distribution *v1alpha1.ResourceDistribution
	Resource     *rdcontract.Resource
	// Hash of spec.resource, written on every copy.
	Hash string
}

// Name is the copies' name.
func (s Source) Name() string { return s.Resource.Meta().Name }

// Desired is the copy that belongs in namespace ns: the source's labels, annotations
// and content, OpenKruise's annotations (hash, from), the copy label, and a controller
// reference to the distribution. The reference is what makes the copy ours: the
// garbage collector deletes it with the distribution (a cluster-scoped owner of a
// namespaced object is allowed), and the controller touches no object without it.
func (s Source) Desired(ns string) Object {
	meta := metav1.ObjectMeta{
		Name:            s.Name(),
		Namespace:       ns,
		Labels:          maps.Clone(s.Resource.Meta().Labels),
		Annotations:     maps.Clone(s.Resource.Meta().Annotations),
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(s.Distribution, distributionKind)},
	}
	if meta.Labels == nil {
		meta.Labels = map[string]string{}
	}
	if meta.Annotations == nil {
		meta.Annotations = map[string]string{}
	}
	meta.Labels[rdcontract.CopyLabel] = "true"
	meta.Annotations[v1alpha1.ResourceDistributionHashAnnotation] = s.Hash
	meta.Annotations[v1alpha1.ResourceDistributionFromAnnotation] = s.Distribution.Name
	if src := s.Resource.Secret; src != nil {
		data := map[string][]byte{}
		for k, v := range src.Data {
			data[k] = v
		}
		for k, v := range src.StringData { // kube-apiserver merges stringData the same way
			data[k] = []byte(v)
		}
		typ := src.Type
		if typ == "" {
			typ = corev1.SecretTypeOpaque
		}
		return &corev1.Secret{ObjectMeta: meta, Type: typ, Data: data, Immutable: src.Immutable}
	}
	src := s.Resource.ConfigMap
	return &corev1.ConfigMap{ObjectMeta: meta, Data: maps.Clone(src.Data), BinaryData: maps.Clone(src.BinaryData), Immutable: src.Immutable}
}

// Owned reports whether obj was made by the distribution: its controller reference
// names the distribution's UID. A distribution deleted and created again under the
// same name does not take over its predecessor's copies: the garbage collector is
// deleting them.
func Owned(obj metav1.Object, rd *v1alpha1.ResourceDistribution) bool {
	ref := metav1.GetControllerOfNoCopy(obj)
	return ref != nil && ref.UID == rd.UID
}

// UpToDate reports whether the copy cur needs no write: it carries the hash of the
// source desired is made from (HashAnnotation, among every label and annotation
// desired carries) and still holds what was distributed (HoldsContent). Whatever else
// is on the copy — data keys, labels and annotations that people or other controllers
// added — is theirs and is no reason to write: comparing whole objects made a copy that
// another controller fills in (a ServiceAccount token's data) a write loop.
func UpToDate(cur, desired Object) bool {
	return subset(desired.GetLabels(), cur.GetLabels()) && subset(desired.GetAnnotations(), cur.GetAnnotations()) &&
		HoldsContent(cur, desired)
}

// HoldsContent reports whether cur still holds what desired distributes: every data
// (and binaryData) key with its value, the Secret type, and the immutability. Keys
// cur has beyond desired's do not count: a copy edited by hand where the source has a
// value is put back, a key added beside them is left.
func HoldsContent(cur, desired Object) bool {
	switch d := desired.(type) {
	case *corev1.ConfigMap:
		c, ok := cur.(*corev1.ConfigMap)
		return ok && subset(d.Data, c.Data) && bytesSubset(d.BinaryData, c.BinaryData) &&
			apiequality.Semantic.DeepEqual(c.Immutable, d.Immutable)
	case *corev1.Secret:
		c, ok := cur.(*corev1.Secret)
		return ok && bytesSubset(d.Data, c.Data) && c.Type == d.Type && apiequality.Semantic.DeepEqual(c.Immutable, d.Immutable)
	}
	return false
}

// Merge is cur rewritten to desired: desired's content, labels and annotations over
// cur's own (the others are kept, as OpenKruise keeps them), resourceVersion kept for
// an optimistic update. The data is desired's alone when the source changed (its hash
// differs: a key the source dropped must go); when it did not, the copy is only being
// put back, and keys others added beside the distributed ones are kept.
func Merge(cur, desired Object) Object {
	sameSource := cur.GetAnnotations()[v1alpha1.ResourceDistributionHashAnnotation] ==
		desired.GetAnnotations()[v1alpha1.ResourceDistributionHashAnnotation]
	out := cur.DeepCopyObject().(Object)
	labels := maps.Clone(out.GetLabels())
	if labels == nil {
		labels = map[string]string{}
	}
	maps.Copy(labels, desired.GetLabels())
	out.SetLabels(labels)
	annotations := maps.Clone(out.GetAnnotations())
	if annotations == nil {
		annotations = map[string]string{}
	}
	maps.Copy(annotations, desired.GetAnnotations())
	out.SetAnnotations(annotations)
	switch o := out.(type) {
	case *corev1.ConfigMap:
		d := desired.(*corev1.ConfigMap)
		if sameSource {
			o.Data, o.BinaryData = over(o.Data, d.Data), over(o.BinaryData, d.BinaryData)
		} else {
			o.Data, o.BinaryData = d.Data, d.BinaryData
		}
		o.Immutable = d.Immutable
	case *corev1.Secret:
		d := desired.(*corev1.Secret)
		if sameSource {
			o.Data = over(o.Data, d.Data)
		} else {
			o.Data = d.Data
		}
		o.StringData, o.Type, o.Immutable = nil, d.Type, d.Immutable
	}
	return out
}

// over is base with every entry of top written over it (a new map); nil when both are
// empty.
func over[V any](base, top map[string]V) map[string]V {
	if len(base)+len(top) == 0 {
		return nil
	}
	out := maps.Clone(base)
	if out == nil {
		out = map[string]V{}
	}
	maps.Copy(out, top)
	return out
}

// ConflictMessage says why obj, found where a copy belongs, is left alone.
func ConflictMessage(kind string, obj metav1.Object) string {
	if ref := metav1.GetControllerOfNoCopy(obj); ref != nil {
		return fmt.Sprintf("%s %s/%s already exists, controlled by %s %s: it is not this distribution's and is left alone",
			kind, obj.GetNamespace(), obj.GetName(), ref.Kind, ref.Name)
	}
	return fmt.Sprintf("%s %s/%s already exists and was not created by this distribution: it is left alone",
		kind, obj.GetNamespace(), obj.GetName())
}

func subset(want, have map[string]string) bool {
	for k, v := range want {
		if hv, ok := have[k]; !ok || hv != v {
			return false
		}
	}
	return true
}

func bytesSubset(want, have map[string][]byte) bool {
	for k, v := range want {
		if hv, ok := have[k]; !ok || !bytes.Equal(hv, v) {
			return false
		}
	}
	return true
}

// immutable reports whether kube refuses changes to the copy's data.
func immutable(obj Object) bool {
	switch o := obj.(type) {
	case *corev1.ConfigMap:
		return o.Immutable != nil && *o.Immutable
	case *corev1.Secret:
		return o.Immutable != nil && *o.Immutable
	}
	return false
}
