package inplaceupdate

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// ContainerPriority returns the container's KRUISE_CONTAINER_PRIORITY env value; a
// missing or non-integer value counts as 0.
func ContainerPriority(c *corev1.Container) int {
	for i := range c.Env {
		if c.Env[i].Name != pub.ContainerPriorityEnv {
			continue
		}
		if p, err := strconv.Atoi(c.Env[i].Value); err == nil {
			return p
		}
		return 0
	}
	return 0
}

// SplitBatches splits an update into the batch to patch now and the rest (nil when the
// whole update fits in one batch). The batch is every changed container of the highest
// KRUISE_CONTAINER_PRIORITY among the changed ones, plus any container that reads a
// label/annotation one of them changes (the key changes for all readers at once, so
// they must restart together). MetaDataPatch goes with the first batch. The next batch
// may start once the containers of this one are updated and ready (CheckCompleted).
//
// Unlike OpenKruise, a container without the env has priority 0 and waits for containers
// with a higher one; OpenKruise updates containers without the env in the first batch.
func SplitBatches(spec *UpdateSpec, pod *corev1.Pod) (now, next *UpdateSpec) {
	now = &UpdateSpec{
		Revision:      spec.Revision,
		MetaDataPatch: spec.MetaDataPatch,
		GraceSeconds:  spec.GraceSeconds,
		// Every resize goes with the first batch, in one resize write: a resize
		// restarts no container (unless its resizePolicy says so), so there is no
		// start order for the priorities to keep. OpenKruise batches resources by
		// priority too, which costs a resize write (and a budget check) per batch.
		ContainerResources: spec.ContainerResources,
	}
	highest, found := 0, false
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		if !changes(spec, c.Name) {
			continue
		}
		if p := ContainerPriority(c); !found || p > highest {
			highest, found = p, true
		}
	}
	batch := map[string]bool{}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		if changes(spec, c.Name) && ContainerPriority(c) == highest {
			batch[c.Name] = true
		}
	}
	addSharedMetadataReaders(batch, spec.ContainerRefMetadata)

	rest := &UpdateSpec{Revision: spec.Revision, GraceSeconds: spec.GraceSeconds}
	for name, image := range spec.ContainerImages {
		if batch[name] {
			now.ContainerImages = setKey(now.ContainerImages, name, image)
		} else {
			rest.ContainerImages = setKey(rest.ContainerImages, name, image)
		}
	}
	for name, meta := range spec.ContainerRefMetadata {
		target := &rest.ContainerRefMetadata
		if batch[name] {
			target = &now.ContainerRefMetadata
		}
		if *target == nil {
			*target = map[string]metav1.ObjectMeta{}
		}
		(*target)[name] = meta
	}
	now.UpdateEnvFromMetadata = len(now.ContainerRefMetadata) > 0
	rest.UpdateEnvFromMetadata = len(rest.ContainerRefMetadata) > 0
	if len(rest.ContainerImages)+len(rest.ContainerRefMetadata) == 0 {
		return now, nil
	}
	return now, rest
}

func changes(spec *UpdateSpec, name string) bool {
	_, image := spec.ContainerImages[name]
	_, meta := spec.ContainerRefMetadata[name]
	return image || meta
}

// addSharedMetadataReaders adds to batch every container that reads a label/annotation
// that a container in batch changes, until no more join.
func addSharedMetadataReaders(batch map[string]bool, refs map[string]metav1.ObjectMeta) {
	for grown := true; grown; {
		grown = false
		labels, annotations := map[string]bool{}, map[string]bool{}
		for name := range batch {
			for k := range refs[name].Labels {
				labels[k] = true
			}
			for k := range refs[name].Annotations {
				annotations[k] = true
			}
		}
		for name, meta := range refs {
			if batch[name] || !(sharesKey(meta.Labels, labels) || sharesKey(meta.Annotations, annotations)) {
				continue
			}
			batch[name] = true
			grown = true
		}
	}
}

func sharesKey(m map[string]string, keys map[string]bool) bool {
	for k := range m {
		if keys[k] {
			return true
		}
	}
	return false
}
