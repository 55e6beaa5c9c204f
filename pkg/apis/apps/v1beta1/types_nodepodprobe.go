package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// NodePodProbe (v1beta1, OpenKruise master's storage version) is the probes one node (the object's name) runs for the pods on it, and
// their results. kruise-controller writes the spec from the PodProbeMarkers; the node
// daemon of that node runs the probes and writes the status.
type NodePodProbe struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec NodePodProbeSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status NodePodProbeStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// NodePodProbeSpec lists the pods to probe.
type NodePodProbeSpec struct {
	// PodProbes are the pods of the node that PodProbeMarkers select.
	// +optional
	// +listType=atomic
	PodProbes []PodProbe `json:"podProbes,omitempty" protobuf:"bytes,1,rep,name=podProbes"`
}

// PodProbe is the probes of one pod.
type PodProbe struct {
	// Name of the pod.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Namespace of the pod.
	Namespace string `json:"namespace" protobuf:"bytes,2,opt,name=namespace"`
	// UID of the pod.
	UID string `json:"uid" protobuf:"bytes,3,opt,name=uid"`
	// v1beta1 has no IP (OpenKruise master dropped v1alpha1's); this server carries
	// the hub's in the annotation NodePodProbePodIPsAnnotation. Field 4 stays unused.
	// Probes of the pod.
	// +optional
	// +listType=atomic
	Probes []ContainerProbe `json:"probes,omitempty" protobuf:"bytes,5,rep,name=probes"`
}

// ContainerProbe is one probe of a pod.
type ContainerProbe struct {
	// Name is "<PodProbeMarker name>#<probe name>".
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// ContainerName is the container the probe runs in or for.
	ContainerName string `json:"containerName" protobuf:"bytes,2,opt,name=containerName"`
	// Probe is the probe, as the PodProbeMarker declares it.
	Probe ContainerProbeSpec `json:"probe" protobuf:"bytes,3,opt,name=probe"`
}

// NodePodProbeStatus is written by the node daemon, when a result changes.
type NodePodProbeStatus struct {
	// PodProbeStatuses are the results, per pod.
	// +optional
	// +listType=atomic
	PodProbeStatuses []PodProbeStatus `json:"podProbeStatuses,omitempty" protobuf:"bytes,1,rep,name=podProbeStatuses"`
}

// PodProbeStatus is the results of one pod's probes.
type PodProbeStatus struct {
	// Name of the pod.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Namespace of the pod.
	Namespace string `json:"namespace" protobuf:"bytes,2,opt,name=namespace"`
	// UID of the pod.
	UID string `json:"uid" protobuf:"bytes,3,opt,name=uid"`
	// ProbeStates are the results of the pod's probes.
	// +optional
	// +listType=atomic
	ProbeStates []ContainerProbeState `json:"probeStates,omitempty" protobuf:"bytes,4,rep,name=probeStates"`
}

// ContainerProbeState is the result of one probe.
type ContainerProbeState struct {
	// Name is the probe's, "<PodProbeMarker name>#<probe name>".
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// State is Succeeded or Failed (Unknown before the first result).
	State ProbeState `json:"state" protobuf:"bytes,2,opt,name=state,casttype=ProbeState"`
	// LastProbeTime is when this result was written (the daemon writes on change only).
	// +optional
	LastProbeTime metav1.Time `json:"lastProbeTime,omitempty" protobuf:"bytes,3,opt,name=lastProbeTime"`
	// LastTransitionTime is when state last changed.
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	// Message is the probe's output on success, its error on failure.
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// NodePodProbeList is a list of NodePodProbes.
type NodePodProbeList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []NodePodProbe `json:"items" protobuf:"bytes,2,rep,name=items"`
}
