package inplaceupdate

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

// CheckCompleted reports where the pod's in-place update stands:
//   - completed: every batch is patched, and every container updated so far runs its
//     new image (or its env restart is done) and is ready. A pod with no update state
//     is completed.
//   - nextBatch: the containers patched so far are updated and ready, and lower-priority
//     containers wait for their batch (PrepareNext applies it).
//
// Neither holds while a grace period runs or while the state annotation is unreadable
// (GetState reports why).
func CheckCompleted(pod *corev1.Pod) (completed bool, nextBatch bool) {
	if _, waiting := pod.Annotations[pub.InPlaceUpdateGraceKey]; waiting {
		return false, false
	}
	state, err := GetState(pod)
	if err != nil {
		return false, false
	}
	if state == nil {
		return true, false
	}
	if !switched(pod, state) || !batchesReady(pod, state) {
		return false, false
	}
	if state.hasNextBatch() {
		return false, true
	}
	return true, false
}

// IsInPlaceUpdating reports whether the pod is in the middle of an in-place update: a
// grace period runs, a batch waits, a patched container still runs its old image, old
// resources or old env, or InPlaceUpdateReady is still False. Readiness of the updated containers is not
// part of it: a pod whose update finished long ago and whose container crashes since is
// unready, not updating.
func IsInPlaceUpdating(pod *corev1.Pod) bool {
	if _, waiting := pod.Annotations[pub.InPlaceUpdateGraceKey]; waiting {
		return true
	}
	if c := podcondition.Find(pod.Status.Conditions, inPlaceUpdateReady); c != nil && c.Status == corev1.ConditionFalse {
		return true
	}
	state, err := GetState(pod)
	if err != nil {
		return true
	}
	return state != nil && (state.hasNextBatch() || !switched(pod, state))
}

// Finish ends a completed in-place update (call it once CheckCompleted reports
// completed): it sets InPlaceUpdateReady=True if the pod carries the gate or the
// condition and it is not True yet. It changes only status (send the pod to pods/status
// when it reports a change; with gracePeriodSeconds 0 it usually does not, so there is
// no write). The state annotation stays, as in OpenKruise, as the record of the last
// update; the grace annotation was already removed by the patch that applied the spec.
func Finish(pod *corev1.Pod, now metav1.Time) (changed bool) {
	c := podcondition.Find(pod.Status.Conditions, inPlaceUpdateReady)
	if c == nil && !hasReadinessGate(pod, inPlaceUpdateReady) {
		return false
	}
	if c != nil && c.Status == corev1.ConditionTrue {
		return false
	}
	return SetReadyCondition(pod, corev1.ConditionTrue, "", now)
}

// switched reports whether the runtime runs what every batch so far asked for: each
// container whose image changed runs a new image, each resized container runs with
// the resources its spec asks for (Resized), each container restarted for env from
// metadata runs with the current values.
func switched(pod *corev1.Pod, state *State) bool {
	if !ImagesSwitched(pod, state.LastContainerStatuses) {
		return false
	}
	if state.UpdateResources && !Resized(pod) {
		return false
	}
	if !state.UpdateEnvFromMetadata {
		return true
	}
	metaSet, err := GetRuntimeContainerMetaSet(pod)
	if err != nil {
		return false
	}
	for name := range state.batchedContainers() {
		c := containerSpec(pod, name)
		if c == nil || !hasMetadataEnv(c) {
			continue
		}
		if !envRestarted(pod, c, metaSet) {
			return false
		}
	}
	return true
}

// ImagesSwitched reports whether every container in last (what it ran before an image
// change) now runs the image its spec names. For workloads that keep their own record
// of an in-place update (SidecarSet, per SidecarSet) and so not State.
func ImagesSwitched(pod *corev1.Pod, last map[string]ContainerStatus) bool {
	for name, l := range last {
		c, cs := containerSpec(pod, name), containerStatus(pod, name)
		if c == nil || cs == nil || !imageSwitched(c, cs, l) {
			return false
		}
	}
	return true
}

// imageSwitched: the status shows another imageID than before the update (both known),
// or the status image is the spec image. The status image changes only once the new
// container is created (or is the spec image while it waits to be: never ready then),
// so it also covers runtimes that report no imageID (kwok) and a new tag of the same
// digest, where the imageID never changes.
func imageSwitched(c *corev1.Container, cs *corev1.ContainerStatus, last ContainerStatus) bool {
	if last.ImageID != "" && cs.ImageID != "" && cs.ImageID != last.ImageID {
		return true
	}
	return normalizeImage(cs.Image) == normalizeImage(c.Image)
}

// normalizeImage makes the short Docker Hub forms comparable with what runtimes report:
// "nginx" and "docker.io/library/nginx:latest" are the same image.
func normalizeImage(image string) string {
	for _, prefix := range []string{"docker.io/library/", "index.docker.io/library/", "docker.io/", "index.docker.io/"} {
		if strings.HasPrefix(image, prefix) {
			image = image[len(prefix):]
			break
		}
	}
	if strings.HasPrefix(image, "library/") {
		image = image[len("library/"):]
	}
	if strings.Contains(image, "@") {
		return image
	}
	if i := strings.LastIndex(image, "/"); !strings.Contains(image[i+1:], ":") {
		image += ":latest"
	}
	return image
}

// envRestarted: the node daemon reported the container's current containerID with
// the env hash the pod's metadata now calls for.
func envRestarted(pod *corev1.Pod, c *corev1.Container, metaSet *RuntimeContainerMetaSet) bool {
	cs := containerStatus(pod, c.Name)
	if cs == nil || cs.ContainerID == "" || metaSet == nil {
		return false
	}
	for _, m := range metaSet.Containers {
		if m.Name == c.Name {
			return m.ContainerID == cs.ContainerID && m.Hashes.ExtractedEnvFromMetadataHash == ExpectedEnvFromMetadataHash(pod, c)
		}
	}
	return false
}

// batchesReady: every container patched so far, and every container the state requires
// ready before the next batch, is ready.
func batchesReady(pod *corev1.Pod, state *State) bool {
	names := state.batchedContainers()
	for name := range state.LastContainerStatuses {
		names[name] = true
	}
	if state.PreCheckBeforeNext != nil {
		for _, name := range state.PreCheckBeforeNext.ContainersRequiredReady {
			names[name] = true
		}
	}
	for name := range names {
		cs := containerStatus(pod, name)
		if cs == nil || !cs.Ready {
			return false
		}
	}
	return true
}
