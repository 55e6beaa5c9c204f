package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodProbeMarker (v1beta1, OpenKruise master's storage version; the same shape as
// v1alpha1) declares probes for the pods its selector matches (in its namespace).
// kruise-controller hands them to the node daemons through NodePodProbes and writes
// each result onto the pod: labels and annotations by markerPolicy, and a condition of
// type podConditionType.
type PodProbeMarker struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec PodProbeMarkerSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status PodProbeMarkerStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// PodProbeMarkerSpec is the pods to probe and the probes.
type PodProbeMarkerSpec struct {
	// Selector selects pods of the marker's namespace. Immutable.
	Selector *metav1.LabelSelector `json:"selector" protobuf:"bytes,1,opt,name=selector"`
	// Probes run in every selected pod. A probe's result is written to the pod's
	// labels and annotations (markerPolicy) and to the condition podConditionType.
	// +patchMergeKey=name
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=name
	Probes []PodContainerProbe `json:"probes" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,2,rep,name=probes"`
}

// PodContainerProbe is one probe run in one container of each selected pod.
type PodContainerProbe struct {
	// Name of the probe, unique within the pod (across markers and containers).
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// ContainerName is the container the probe runs in (exec) or for (httpGet, tcpSocket).
	ContainerName string `json:"containerName" protobuf:"bytes,2,opt,name=containerName"`
	// Probe is a core/v1 probe: exec, httpGet or tcpSocket, with its period, timeout
	// and thresholds.
	Probe ContainerProbeSpec `json:"probe" protobuf:"bytes,3,opt,name=probe"`
	// MarkerPolicy is the labels and annotations the pod carries in each probe state.
	// At least one of markerPolicy and podConditionType is set.
	// +optional
	// +patchMergeKey=state
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=state
	MarkerPolicy []ProbeMarkerPolicy `json:"markerPolicy,omitempty" patchStrategy:"merge" patchMergeKey:"state" protobuf:"bytes,4,rep,name=markerPolicy"`
	// PodConditionType, if set, is the type of the pod condition the result is written
	// to: status True when the probe succeeds, False when it fails.
	// +optional
	PodConditionType string `json:"podConditionType,omitempty" protobuf:"bytes,5,opt,name=podConditionType"`
}

// ContainerProbeSpec is a core/v1 probe, inlined.
type ContainerProbeSpec struct {
	corev1.Probe `json:",inline" protobuf:"bytes,1,opt,name=probe"`
}

// ProbeMarkerPolicy is the labels and annotations a pod carries while a probe is in
// state; when the probe moves to another state they are removed.
type ProbeMarkerPolicy struct {
	// State is Succeeded or Failed.
	State ProbeState `json:"state" protobuf:"bytes,1,opt,name=state,casttype=ProbeState"`
	// Labels put on the pod in this state.
	// +optional
	Labels map[string]string `json:"labels,omitempty" protobuf:"bytes,2,rep,name=labels"`
	// Annotations put on the pod in this state.
	// +optional
	Annotations map[string]string `json:"annotations,omitempty" protobuf:"bytes,3,rep,name=annotations"`
}

// PodProbeMarkerStatus is written by kruise-controller.
type PodProbeMarkerStatus struct {
	// ObservedGeneration is the generation the controller last acted on.
	ObservedGeneration int64 `json:"observedGeneration" protobuf:"varint,1,opt,name=observedGeneration"`
	// MatchedPods is the number of active pods the selector matches.
	// +optional
	MatchedPods int64 `json:"matchedPods,omitempty" protobuf:"varint,2,opt,name=matchedPods"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodProbeMarkerList is a list of PodProbeMarkers.
type PodProbeMarkerList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []PodProbeMarker `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ProbeState is the result of a probe.
type ProbeState string

// The states of a probe.
const (
	ProbeSucceeded ProbeState = "Succeeded"
	ProbeFailed    ProbeState = "Failed"
	ProbeUnknown   ProbeState = "Unknown"
)
