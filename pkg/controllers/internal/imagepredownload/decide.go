// Package imagepredownload pre-downloads the new images of an in-place rollout on the
// nodes of the pods not yet updated, OpenKruise's PreDownloadImageForInPlaceUpdate:
// once enough updated pods are ready, one ImagePullJob per changed image, selecting the
// workload's pods of other revisions; the jobs go when the rollout completes. CloneSet
// and Advanced StatefulSet share it.
package imagepredownload

import (
	"sort"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// MinReplicas: as in OpenKruise, a workload of at most this many replicas is updated
// too fast for a pre-download to pay.
const MinReplicas = 3

// Rollout is what the decision needs to know about a workload.
type Rollout struct {
	// InPlace: the pod update policy may update pods in place.
	InPlace bool
	// CurrentRevision and UpdateRevision; equal when the rollout is complete.
	CurrentRevision, UpdateRevision string
	Replicas                        int
	// Partition is the resolved number of pods kept at old revisions; MaxUnavailable
	// the resolved number of pods updated at once.
	Partition, MaxUnavailable int
	// UpdatedReady is the number of ready pods at UpdateRevision.
	UpdatedReady int
	// MinUpdatedReady is imagePreDownloadMinUpdatedReadyPods (0 when unset).
	MinUpdatedReady int
	// NewImages are the images of the update revision's changed containers.
	NewImages []string
	// Ignored: the workload or its update revision carries
	// apps.kruise.io/image-predownload-ignored.
	Ignored bool
}

// Action is what to do with the workload's pre-download jobs.
type Action int

const (
	// Keep: leave the jobs as they are (none to make yet, none to remove).
	Keep Action = iota
	// Create the jobs of UpdateRevision (if missing) and remove those of other revisions.
	Create
	// Cleanup removes every job of the workload.
	Cleanup
)

// Decide is the rule. A feature turned off (also for this workload or revision:
// Ignored) or a rollout complete cleans up (so jobs left by an earlier rollout or an
// earlier setting go); an in-progress rollout makes
// the jobs once MinUpdatedReady updated pods are ready, unless it would gain nothing:
// recreate updates, small workloads, every pod in one batch, no image changed.
func Decide(r Rollout) Action {
	if r.CurrentRevision == r.UpdateRevision || r.UpdateRevision == "" || r.Ignored {
		return Cleanup
	}
	switch {
	case !r.InPlace, r.Replicas <= MinReplicas, len(r.NewImages) == 0:
		return Keep
	case r.Partition == 0 && r.MaxUnavailable >= r.Replicas:
		return Keep
	case r.UpdatedReady < r.MinUpdatedReady:
		return Keep
	}
	return Create
}

// ChangedImages lists the images of containers of updated whose image differs from
// the container of the same name in current (new containers included), sorted, once each.
func ChangedImages(current, updated *corev1.PodSpec) []string {
	old := map[string]string{}
	for _, c := range current.Containers {
		old[c.Name] = c.Image
	}
	seen := map[string]bool{}
	var out []string
	for _, c := range updated.Containers {
		if old[c.Name] != c.Image && !seen[c.Image] {
			seen[c.Image] = true
			out = append(out, c.Image)
		}
	}
	sort.Strings(out)
	return out
}

// Settings reads the strategy's pre-download fields, falling back on the v1alpha1
// annotations (apps.kruise.io/image-predownload-*) when a field is unset.
func Settings(s *pub.InPlaceUpdateStrategy, annotations map[string]string) (minUpdatedReady int, parallelism *intstr.IntOrString, timeout *int32) {
	if s != nil && s.ImagePreDownloadMinUpdatedReadyPods != nil {
		minUpdatedReady = int(*s.ImagePreDownloadMinUpdatedReadyPods)
	} else if v, err := strconv.Atoi(annotations[pub.ImagePreDownloadMinUpdatedReadyPodsKey]); err == nil && v > 0 {
		minUpdatedReady = v
	}
	if s != nil && s.ImagePreDownloadParallelism != nil {
		p := *s.ImagePreDownloadParallelism
		parallelism = &p
	} else if v, ok := annotations[pub.ImagePreDownloadParallelismKey]; ok {
		p := intstr.Parse(v)
		parallelism = &p
	}
	if s != nil && s.ImagePreDownloadTimeoutSeconds != nil {
		t := *s.ImagePreDownloadTimeoutSeconds
		timeout = &t
	} else if v, err := strconv.Atoi(annotations[pub.ImagePreDownloadTimeoutSecondsKey]); err == nil && v > 0 {
		t := int32(v)
		timeout = &t
	}
	return minUpdatedReady, parallelism, timeout
}

// Ignored reports whether apps.kruise.io/image-predownload-ignored is on the workload
// (annotation or label) or on its update revision (label); its value is not read, as
// in OpenKruise.
func Ignored(workload, updateRevision metav1.Object) bool {
	has := func(m map[string]string) bool { _, ok := m[pub.ImagePreDownloadIgnoredKey]; return ok }
	if workload != nil && (has(workload.GetAnnotations()) || has(workload.GetLabels())) {
		return true
	}
	return updateRevision != nil && has(updateRevision.GetLabels())
}
