package apps

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// NodePodProbe is the probes one node (the object's name) runs for the pods on it, and
// their results. kruise-controller writes the spec from the PodProbeMarkers; the
// node daemon of that node runs the probes and writes the status.
type NodePodProbe struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   NodePodProbeSpec
	Status NodePodProbeStatus
}

// NodePodProbeSpec lists the pods to probe.
type NodePodProbeSpec struct {
	PodProbes []PodProbe
}

// PodProbe is the probes of one pod.
type PodProbe struct {
	Name      string
	Namespace string
	UID       string
	// IP is the pod's IP, the address of httpGet and tcpSocket probes.
	IP     string
	Probes []ContainerProbe
}

// ContainerProbe is one probe of a pod.
type ContainerProbe struct {
	// Name is "<PodProbeMarker name>#<probe name>".
	Name          string
	ContainerName string
	Probe         ContainerProbeSpec
}

// NodePodProbeStatus is written by the node daemon.
type NodePodProbeStatus struct {
	PodProbeStatuses []PodProbeStatus
}

// PodProbeStatus is the results of one pod's probes.
type PodProbeStatus struct {
	Name        string
	Namespace   string
	UID         string
	ProbeStates []ContainerProbeState
}

// ContainerProbeState is the result of one probe.
type ContainerProbeState struct {
	// Name is the probe's, "<PodProbeMarker name>#<probe name>".
	Name  string
	State ProbeState
	// LastProbeTime is when the result last changed; the daemon does not write every run.
	LastProbeTime metav1.Time
	// LastTransitionTime is when State last changed.
	LastTransitionTime metav1.Time
	// Message is the probe's output (success) or error (failure).
	Message string
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// NodePodProbeList is a list of NodePodProbes.
type NodePodProbeList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []NodePodProbe
}
