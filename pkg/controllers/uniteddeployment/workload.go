package uniteddeployment

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// workload is a subset's workload as the controller reads it, whatever its kind.
type workload struct {
	obj      metav1.Object
	subset   string
	revision string
	specHash string
	// From the workload's status, once it reflects the workload's spec.
	replicas, ready, updated, updatedReady int32
	partition                              int32
}

// desired is what the controller wants one subset's workload to be.
type desired struct {
	subset    *v1beta1.Subset
	revision  string
	replicas  int32
	partition int32
}

// kindAdapter reads and writes one kind of subset workload. Every kind is built the
// same way (buildMeta, subsetPodTemplate, subsetSelector); adapters only know where
// the kind keeps replicas, partition and status.
type kindAdapter interface {
	// list returns the namespace's workloads of this kind that the selector selects.
	list(ns string, sel labels.Selector) ([]workload, error)
	// build returns the workload for d, with its hash annotation set.
	build(ud *v1beta1.UnitedDeployment, d desired) (metav1.Object, error)
	// create returns the name the server gave the workload.
	create(ctx context.Context, obj metav1.Object) (string, error)
	// update writes desired's labels, annotations and spec onto the existing workload.
	update(ctx context.Context, existing workload, obj metav1.Object) error
	delete(ctx context.Context, w workload) error
}

// buildMeta is the metadata of a subset workload: the template's labels and
// annotations, the subset and revision labels, owned by the UnitedDeployment and
// named <ud>-<subset>-<random> as OpenKruise names them.
func buildMeta(ud *v1beta1.UnitedDeployment, tmpl metav1.ObjectMeta, d desired) metav1.ObjectMeta {
	m := metav1.ObjectMeta{
		GenerateName:    fmt.Sprintf("%s-%s-", ud.Name, d.subset.Name),
		Namespace:       ud.Namespace,
		Labels:          maps.Clone(tmpl.Labels),
		Annotations:     maps.Clone(tmpl.Annotations),
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ud, ownerKind)},
	}
	if m.Labels == nil {
		m.Labels = map[string]string{}
	}
	for k, v := range ud.Spec.Selector.MatchLabels {
		m.Labels[k] = v
	}
	m.Labels[SubsetLabel] = d.subset.Name
	m.Labels[RevisionLabel] = d.revision
	return m
}

// subsetSelector is the UnitedDeployment's selector narrowed to one subset.
func subsetSelector(ud *v1beta1.UnitedDeployment, subset string) *metav1.LabelSelector {
	sel := ud.Spec.Selector.DeepCopy()
	if sel.MatchLabels == nil {
		sel.MatchLabels = map[string]string{}
	}
	sel.MatchLabels[SubsetLabel] = subset
	return sel
}

// withHash sets the hash annotation of a built workload: a hash of its labels,
// annotations and spec (spec passed in by the adapter, typed).
func withHash(meta *metav1.ObjectMeta, spec any) error {
	data, err := json.Marshal(struct {
		Labels, Annotations map[string]string
		Spec                any
	}{meta.Labels, meta.Annotations, spec})
	if err != nil {
		return fmt.Errorf("hashing the workload: %w", err)
	}
	h := fnv.New64a()
	h.Write(data)
	if meta.Annotations == nil {
		meta.Annotations = map[string]string{}
	}
	meta.Annotations[specHashAnnotation] = fmt.Sprintf("%x", h.Sum64())
	return nil
}

// readMeta fills a workload's subset, revision and hash from its metadata.
func readMeta(obj metav1.Object) workload {
	return workload{
		obj:      obj,
		subset:   obj.GetLabels()[SubsetLabel],
		revision: obj.GetLabels()[RevisionLabel],
		specHash: obj.GetAnnotations()[specHashAnnotation],
	}
}

// mergeMeta puts desired labels and annotations onto a stored workload's, keeping
// what others added.
func mergeMeta(dst, src metav1.Object) {
	labels := dst.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	maps.Copy(labels, src.GetLabels())
	dst.SetLabels(labels)
	annotations := dst.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	maps.Copy(annotations, src.GetAnnotations())
	dst.SetAnnotations(annotations)
}

// podTemplateFor is the subset's pod template from the workload template's.
func podTemplateFor(base *corev1.PodTemplateSpec, d desired) (corev1.PodTemplateSpec, error) {
	t, err := subsetPodTemplate(base, d.subset)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	return *t, nil
}
