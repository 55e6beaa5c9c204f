package apps

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodProbeMarker declares probes for the pods its selector matches (in its namespace).
// kruise-controller hands them to the node daemons through NodePodProbes and writes
// each result onto the pod: labels and annotations by markerPolicy, and a condition of
// type podConditionType.
type PodProbeMarker struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   PodProbeMarkerSpec
	Status PodProbeMarkerStatus
}

// PodProbeMarkerSpec is the pods to probe and the probes.
type PodProbeMarkerSpec struct {
	// Selector selects the pods of the marker's namespace; immutable.
	Selector *metav1.LabelSelector
	// Probes run in every selected pod; names are unique within the marker.
	Probes []PodContainerProbe
}

// PodContainerProbe is one probe run in one container of each selected pod.
type PodContainerProbe struct {
	// Name is unique within the pod (across markers and containers).
	Name string
	// ContainerName is the container the probe runs in (exec) or for (network).
	ContainerName string
	// Probe is a core/v1 probe: its handler, period, timeout and thresholds.
	Probe ContainerProbeSpec
	// MarkerPolicy is what to put on the pod in each probe state.
	MarkerPolicy []ProbeMarkerPolicy
	// PodConditionType, if set, is the pod condition the result is written to.
	PodConditionType string
}

// ContainerProbeSpec is a core/v1 probe, inlined as OpenKruise does.
type ContainerProbeSpec struct {
	corev1.Probe
}

// ProbeMarkerPolicy is the labels and annotations a pod carries while a probe is in State;
// when the probe moves to another state they are removed.
type ProbeMarkerPolicy struct {
	State       ProbeState
	Labels      map[string]string
	Annotations map[string]string
}

// PodProbeMarkerStatus is written by kruise-controller.
type PodProbeMarkerStatus struct {
	ObservedGeneration int64
	// MatchedPods is the number of active pods the selector matches.
	MatchedPods int64
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodProbeMarkerList is a list of PodProbeMarkers.
type PodProbeMarkerList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []PodProbeMarker
}

// ProbeState is the result of a probe.
type ProbeState string

// The states of a probe.
const (
	ProbeSucceeded ProbeState = "Succeeded"
	ProbeFailed    ProbeState = "Failed"
	ProbeUnknown   ProbeState = "Unknown"
)
