package inplaceupdate

import (
	"sort"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// UpdateSpec is what an in-place update changes on a pod. Its JSON is OpenKruise's
// UpdateSpec (it is what waits in the apps.kruise.io/inplace-update-grace annotation).
type UpdateSpec struct {
	// Revision the pod is updated to; written to the pod's revision label.
	Revision string `json:"revision"`
	// ContainerImages: container name → new image.
	ContainerImages map[string]string `json:"containerImages,omitempty"`
	// ContainerResources: container name → its new resources (the whole
	// requirements), applied through the pod's resize subresource (Options.VerticalScaling).
	ContainerResources map[string]corev1.ResourceRequirements `json:"containerResources,omitempty"`
	// ContainerRefMetadata: container name → the changed labels/annotations it reads
	// through env; they are written in that container's batch and it is restarted.
	ContainerRefMetadata map[string]metav1.ObjectMeta `json:"containerRefMetadata,omitempty"`
	// MetaDataPatch: template labels/annotations to set or remove that no container
	// reads through env; written with the first batch.
	MetaDataPatch *MetadataPatch `json:"metaDataPatch,omitempty"`
	// UpdateEnvFromMetadata: ContainerRefMetadata is not empty.
	UpdateEnvFromMetadata bool `json:"updateEnvFromMetadata,omitempty"`
	// GraceSeconds between InPlaceUpdateReady=False and the spec patch; the caller sets
	// it from the workload's InPlaceUpdateStrategy.GracePeriodSeconds.
	GraceSeconds int32 `json:"graceSeconds,omitempty"`
}

// CalculateSpec returns what updating a pod from oldTmpl to newTmpl in place changes, or
// nil when the change cannot be made in place. In place means: in spec only container
// images changed (same containers, same order); in metadata only labels and annotations
// changed. A changed label/annotation that a container reads through env is recorded
// for that container (ContainerRefMetadata: it will be restarted); other label and
// annotation changes go to MetaDataPatch. Removing a label/annotation that a container
// reads returns nil: the container's env would change and there is no way to express the
// removal per container (OpenKruise removes it and leaves the container's env stale).
func CalculateSpec(oldTmpl, newTmpl *corev1.PodTemplateSpec, newRevision string) *UpdateSpec {
	return CalculateSpecWith(oldTmpl, newTmpl, newRevision, Options{})
}

// CalculateSpecWith is CalculateSpec with opts. With opts.VerticalScaling a change of
// container cpu/memory requests and limits is in place too (ContainerResources), when
// the resize subresource would take it (resizableChange) and the pod's QoS class stays;
// init container resources and pod-level resources are not resized (recreate).
func CalculateSpecWith(oldTmpl, newTmpl *corev1.PodTemplateSpec, newRevision string, opts Options) *UpdateSpec {
	if oldTmpl == nil || newTmpl == nil {
		return nil
	}
	spec := &UpdateSpec{
		Revision:             newRevision,
		ContainerImages:      map[string]string{},
		ContainerRefMetadata: map[string]metav1.ObjectMeta{},
	}

	// spec: only container images may differ.
	oldSpec := oldTmpl.Spec.DeepCopy()
	if len(oldSpec.Containers) != len(newTmpl.Spec.Containers) {
		return nil
	}
	for i := range oldSpec.Containers {
		o, n := &oldSpec.Containers[i], &newTmpl.Spec.Containers[i]
		if o.Name != n.Name {
			return nil
		}
		if o.Image != n.Image {
			spec.ContainerImages[n.Name] = n.Image
			o.Image = n.Image
		}
		if opts.VerticalScaling && !apiequality.Semantic.DeepEqual(o.Resources, n.Resources) && resizableChange(o.Resources, n.Resources) {
			if spec.ContainerResources == nil {
				spec.ContainerResources = map[string]corev1.ResourceRequirements{}
			}
			spec.ContainerResources[n.Name] = *n.Resources.DeepCopy()
			o.Resources = *n.Resources.DeepCopy()
		}
	}
	if !apiequality.Semantic.DeepEqual(*oldSpec, newTmpl.Spec) {
		return nil
	}
	if len(spec.ContainerResources) > 0 && (oldTmpl.Spec.Resources != nil || qosClass(&oldTmpl.Spec) != qosClass(&newTmpl.Spec)) {
		return nil
	}

	// metadata: only labels and annotations may differ.
	oldMeta, newMeta := oldTmpl.ObjectMeta.DeepCopy(), newTmpl.ObjectMeta.DeepCopy()
	oldMeta.Labels, oldMeta.Annotations, newMeta.Labels, newMeta.Annotations = nil, nil, nil, nil
	if !apiequality.Semantic.DeepEqual(oldMeta, newMeta) {
		return nil
	}
	patch := &MetadataPatch{}
	ok := diffMetadata(spec, &newTmpl.Spec, metaLabels, oldTmpl.Labels, newTmpl.Labels, &patch.Labels, &patch.RemoveLabels)
	if !ok {
		return nil
	}
	ok = diffMetadata(spec, &newTmpl.Spec, metaAnnotations, oldTmpl.Annotations, newTmpl.Annotations, &patch.Annotations, &patch.RemoveAnnotations)
	if !ok {
		return nil
	}
	if !patch.empty() {
		spec.MetaDataPatch = patch
	}
	spec.UpdateEnvFromMetadata = len(spec.ContainerRefMetadata) > 0
	return spec
}

// diffMetadata sorts the changes between two label (or annotation) maps into the spec:
// a set key that containers read goes to their ContainerRefMetadata, any other to
// set/remove. It returns false when a removed key is read by a container, or when a
// changed key is read by a restartable init container (a native sidecar: it cannot be
// restarted in place).
func diffMetadata(spec *UpdateSpec, podSpec *corev1.PodSpec, kind string, old, cur map[string]string, set *map[string]string, remove *[]string) bool {
	for key, v := range cur {
		if ov, ok := old[key]; ok && ov == v {
			continue
		}
		if readByInitSidecar(podSpec, kind, key) {
			return false
		}
		read := false
		for i := range podSpec.Containers {
			c := &podSpec.Containers[i]
			if !referencesMetadata(c, kind, key) {
				continue
			}
			read = true
			meta := spec.ContainerRefMetadata[c.Name]
			if kind == metaLabels {
				meta.Labels = setKey(meta.Labels, key, v)
			} else {
				meta.Annotations = setKey(meta.Annotations, key, v)
			}
			spec.ContainerRefMetadata[c.Name] = meta
		}
		if !read {
			*set = setKey(*set, key, v)
		}
	}
	for key := range old {
		if _, ok := cur[key]; ok {
			continue
		}
		if readByInitSidecar(podSpec, kind, key) {
			return false
		}
		for i := range podSpec.Containers {
			if referencesMetadata(&podSpec.Containers[i], kind, key) {
				return false
			}
		}
		*remove = append(*remove, key)
	}
	sort.Strings(*remove)
	return true
}

func readByInitSidecar(podSpec *corev1.PodSpec, kind, key string) bool {
	for i := range podSpec.InitContainers {
		c := &podSpec.InitContainers[i]
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways && referencesMetadata(c, kind, key) {
			return true
		}
	}
	return false
}

func setKey(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}

// VerticalOnly reports whether the update only resizes containers: no image, no
// env-from-metadata restart (label and annotation changes no container reads may
// come along).
func (s *UpdateSpec) VerticalOnly() bool {
	return len(s.ContainerResources) > 0 && len(s.ContainerImages) == 0 && len(s.ContainerRefMetadata) == 0
}

// containerNames returns the sorted names of the containers the spec changes.
func (s *UpdateSpec) containerNames() []string {
	seen := map[string]bool{}
	for n := range s.ContainerImages {
		seen[n] = true
	}
	for n := range s.ContainerRefMetadata {
		seen[n] = true
	}
	for n := range s.ContainerResources {
		seen[n] = true
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
