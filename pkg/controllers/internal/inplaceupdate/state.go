package inplaceupdate

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// State is the value of the pod annotation apps.kruise.io/inplace-update-state: what the
// latest in-place update changed and what it needs to tell when it is done. Its JSON is
// OpenKruise's InPlaceUpdateState field for field (names, omitempty, order), so pods
// updated by either implementation read the same.
//
// The annotation stays on the pod after the update completes, as in OpenKruise: it is
// the pod's record of its last in-place update, and the next update replaces it.
type State struct {
	// Revision is the revision the pod is updated to.
	Revision string `json:"revision"`
	// UpdateTimestamp is when the update started (for a grace period: when it began).
	UpdateTimestamp metav1.Time `json:"updateTimestamp"`
	// LastContainerStatuses holds, per container whose image is changed, its imageID
	// before the change: a different imageID in the status means the runtime switched.
	LastContainerStatuses map[string]ContainerStatus `json:"lastContainerStatuses"`
	// UpdateEnvFromMetadata: some containers read changed labels/annotations through
	// env valueFrom.fieldRef and must be restarted by the node daemon (see envmeta.go).
	UpdateEnvFromMetadata bool `json:"updateEnvFromMetadata,omitempty"`
	// UpdateImages: the update changes container images.
	UpdateImages bool `json:"updateImages,omitempty"`
	// UpdateResources: the update resizes containers (through the resize
	// subresource); it is complete once the status reports the spec's resources.
	UpdateResources bool `json:"updateResources,omitempty"`
	// VerticalUpdateOnly: the update only resizes containers. OpenKruise writes it
	// without omitempty, so it does too.
	VerticalUpdateOnly bool `json:"verticalUpdateOnly"`
	// NextContainerImages are images of lower-priority containers waiting for a later batch.
	NextContainerImages map[string]string `json:"nextContainerImages,omitempty"`
	// NextContainerRefMetadata are labels/annotations read by lower-priority containers,
	// waiting for a later batch.
	NextContainerRefMetadata map[string]metav1.ObjectMeta `json:"nextContainerRefMetadata,omitempty"`
	// NextContainerResources: never set here (every resize goes with the first batch,
	// SplitBatches); kept so states written by OpenKruise round-trip.
	NextContainerResources map[string]corev1.ResourceRequirements `json:"nextContainerResources,omitempty"`
	// PreCheckBeforeNext must pass before the next batch starts.
	PreCheckBeforeNext *PreCheckBeforeNext `json:"preCheckBeforeNext,omitempty"`
	// ContainerBatchesRecord lists the batches patched so far for this revision.
	ContainerBatchesRecord []ContainerBatch `json:"containerBatchesRecord,omitempty"`
}

// ContainerStatus is what State remembers of a container from before the update.
type ContainerStatus struct {
	ImageID string `json:"imageID,omitempty"`
	// Resources: for a resized container, the cpu and memory its status reported
	// before the resize. OpenKruise declares it as a value with omitempty, which
	// encoding/json still writes as {}, and so does this type.
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`
}

// PreCheckBeforeNext is what must hold before the next batch of containers is updated.
type PreCheckBeforeNext struct {
	ContainersRequiredReady []string `json:"containersRequiredReady,omitempty"`
}

// ContainerBatch records one batch: when it was patched and which containers it updated.
type ContainerBatch struct {
	Timestamp  metav1.Time `json:"timestamp"`
	Containers []string    `json:"containers"`
}

// hasNextBatch reports whether containers still wait for a later batch.
func (s *State) hasNextBatch() bool {
	return len(s.NextContainerImages) > 0 || len(s.NextContainerRefMetadata) > 0
}

// batchedContainers returns every container named in a batch so far.
func (s *State) batchedContainers() map[string]bool {
	names := map[string]bool{}
	for _, b := range s.ContainerBatchesRecord {
		for _, c := range b.Containers {
			names[c] = true
		}
	}
	return names
}

// GetState returns the pod's in-place update state, or nil when it has none.
func GetState(pod *corev1.Pod) (*State, error) {
	v, ok := pod.Annotations[pub.InPlaceUpdateStateKey]
	if !ok || v == "" {
		return nil, nil
	}
	s := &State{}
	if err := json.Unmarshal([]byte(v), s); err != nil {
		return nil, fmt.Errorf("pod %s/%s: annotation %s: %w", pod.Namespace, pod.Name, pub.InPlaceUpdateStateKey, err)
	}
	return s, nil
}

// SetState writes state into the pod's annotation (the pod is modified).
func SetState(pod *corev1.Pod, state *State) error {
	b, err := json.Marshal(state)
	if err != nil {
		return err
	}
	setAnnotation(pod, pub.InPlaceUpdateStateKey, string(b))
	return nil
}

func setAnnotation(pod *corev1.Pod, key, value string) {
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations[key] = value
}
