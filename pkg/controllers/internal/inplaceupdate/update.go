package inplaceupdate

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/podutil"
)

// Prepare starts an in-place update: it returns a modified copy of pod (pod itself is not
// touched) carrying everything the update writes, to be sent as ONE patch (podpatch.Bytes):
//   - the revision label (revisionLabel; "" means controller-revision-hash) = spec.Revision;
//   - the state annotation, recording the imageIDs the containers run now (from
//     pod.status) so CheckCompleted can tell when the runtime has switched;
//   - without a grace period: the first container batch (SplitBatches) — its new images
//     and every container's new resources (sent apart, to the resize subresource),
//     the labels/annotations its containers read through env (the node daemon restarts
//     them: State.UpdateEnvFromMetadata, see envmeta.go) and the template's other label
//     and annotation changes;
//   - with spec.GraceSeconds > 0: no spec change yet, but the UpdateSpec in the grace
//     annotation; PrepareNext applies it once the grace is over. Send this copy to the
//     pods/status endpoint together with InPlaceUpdateReady=False (SetReadyCondition).
//
// The caller may add its own label/annotation changes (e.g. a lifecycle state) to the
// returned pod before podpatch.Bytes: they travel in the same patch.
func Prepare(pod *corev1.Pod, spec *UpdateSpec, revisionLabel string, now metav1.Time) (*corev1.Pod, error) {
	if spec == nil {
		return nil, fmt.Errorf("pod %s/%s: no update spec", pod.Namespace, pod.Name)
	}
	if err := checkContainers(pod, spec); err != nil {
		return nil, err
	}
	clone := pod.DeepCopy()
	if clone.Labels == nil {
		clone.Labels = map[string]string{}
	}
	clone.Labels[labelKey(revisionLabel)] = spec.Revision
	state := &State{
		Revision:              spec.Revision,
		UpdateTimestamp:       now,
		LastContainerStatuses: map[string]ContainerStatus{},
		UpdateEnvFromMetadata: spec.UpdateEnvFromMetadata,
		UpdateImages:          len(spec.ContainerImages) > 0,
		UpdateResources:       len(spec.ContainerResources) > 0,
		VerticalUpdateOnly:    spec.VerticalOnly(),
	}
	if spec.GraceSeconds > 0 {
		if err := setGraceSpec(clone, spec); err != nil {
			return nil, err
		}
		return clone, SetState(clone, state)
	}
	delete(clone.Annotations, pub.InPlaceUpdateGraceKey)
	return clone, applyBatch(clone, spec, state, now)
}

// PrepareNext continues the pod's in-place update and returns the modified copy to send
// as one patch, or nil when nothing is due yet:
//   - an update waiting out its grace period is applied (first batch) once GraceRemaining
//     is 0; if the pod's revision label no longer matches it, the grace annotation is just
//     dropped (a new update must be prepared);
//   - otherwise the next container batch is applied once CheckCompleted reports nextBatch.
func PrepareNext(pod *corev1.Pod, revisionLabel string, now metav1.Time) (*corev1.Pod, error) {
	spec, err := GetGraceSpec(pod)
	if err != nil {
		return nil, err
	}
	state, err := GetState(pod)
	if err != nil {
		return nil, err
	}
	if spec != nil {
		clone := pod.DeepCopy()
		delete(clone.Annotations, pub.InPlaceUpdateGraceKey)
		if pod.Labels[labelKey(revisionLabel)] != spec.Revision {
			return clone, nil
		}
		if GraceRemaining(pod, now) > 0 {
			return nil, nil
		}
		if err := checkContainers(pod, spec); err != nil {
			return nil, err
		}
		if state == nil {
			state = &State{Revision: spec.Revision, UpdateTimestamp: now, UpdateEnvFromMetadata: spec.UpdateEnvFromMetadata,
				UpdateImages: len(spec.ContainerImages) > 0, UpdateResources: len(spec.ContainerResources) > 0, VerticalUpdateOnly: spec.VerticalOnly()}
		}
		return clone, applyBatch(clone, spec, state, now)
	}
	if _, nextBatch := CheckCompleted(pod); !nextBatch {
		return nil, nil
	}
	next := &UpdateSpec{
		Revision:              state.Revision,
		ContainerImages:       state.NextContainerImages,
		ContainerRefMetadata:  state.NextContainerRefMetadata,
		UpdateEnvFromMetadata: len(state.NextContainerRefMetadata) > 0,
	}
	if err := checkContainers(pod, next); err != nil {
		return nil, err
	}
	clone := pod.DeepCopy()
	return clone, applyBatch(clone, next, state, now)
}

// applyBatch writes the first batch of spec into pod and records it in state.
func applyBatch(pod *corev1.Pod, spec *UpdateSpec, state *State, now metav1.Time) error {
	batch, rest := SplitBatches(spec, pod)

	meta := &pod.ObjectMeta
	batch.MetaDataPatch.apply(meta)
	for _, ref := range batch.ContainerRefMetadata {
		for k, v := range ref.Labels {
			meta.Labels = setKey(meta.Labels, k, v)
		}
		for k, v := range ref.Annotations {
			meta.Annotations = setKey(meta.Annotations, k, v)
		}
	}

	if state.LastContainerStatuses == nil {
		state.LastContainerStatuses = map[string]ContainerStatus{}
	}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		image, ok := batch.ContainerImages[c.Name]
		if !ok {
			continue
		}
		c.Image = image
		// A container without a status yet is recorded with no imageID: CheckCompleted
		// then waits for its status to show the new image.
		recorded := ContainerStatus{}
		if cs := containerStatus(pod, c.Name); cs != nil {
			recorded.ImageID = cs.ImageID
		}
		state.LastContainerStatuses[c.Name] = recorded
	}

	// The batch's resources go into the copy's spec: the Executor sends them to the
	// resize subresource (podpatch.ResizeBytes), the rest to the pod (podpatch.Bytes,
	// which never sends resources).
	applyResources(pod, batch, state)

	names := batch.containerNames()
	state.NextContainerImages, state.NextContainerRefMetadata, state.PreCheckBeforeNext = nil, nil, nil
	if rest != nil {
		state.NextContainerImages = rest.ContainerImages
		state.NextContainerRefMetadata = rest.ContainerRefMetadata
		state.PreCheckBeforeNext = &PreCheckBeforeNext{ContainersRequiredReady: names}
	}
	state.UpdateEnvFromMetadata = state.UpdateEnvFromMetadata || batch.UpdateEnvFromMetadata
	state.ContainerBatchesRecord = append(state.ContainerBatchesRecord, ContainerBatch{Timestamp: now, Containers: names})
	return SetState(pod, state)
}

// checkContainers rejects a spec naming a container the pod does not have.
func checkContainers(pod *corev1.Pod, spec *UpdateSpec) error {
	for _, name := range spec.containerNames() {
		if containerSpec(pod, name) == nil {
			return fmt.Errorf("pod %s/%s has no container %q to update in place", pod.Namespace, pod.Name, name)
		}
	}
	return nil
}

func labelKey(revisionLabel string) string {
	if revisionLabel == "" {
		return pub.ControllerRevisionHashLabelKey
	}
	return revisionLabel
}

func containerSpec(pod *corev1.Pod, name string) *corev1.Container {
	return podutil.Container(pod, name)
}

func containerStatus(pod *corev1.Pod, name string) *corev1.ContainerStatus {
	return podutil.ContainerStatus(pod, name)
}
