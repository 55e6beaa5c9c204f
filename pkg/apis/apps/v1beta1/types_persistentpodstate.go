package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PersistentPodState records where each pod of a StatefulSet (apps/v1 or Advanced) ran:
// its node and the node labels the spec names. When a pod of the same name is created
// again, kruise-apiserver's pod webhook gives it node affinity to that topology
// (required and preferred as the spec says). kruise-controller writes the status.
type PersistentPodState struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec PersistentPodStateSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status PersistentPodStateStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// PersistentPodStateSpec is the workload and the topology to keep.
type PersistentPodStateSpec struct {
	// TargetReference is the workload whose pods are recorded: a StatefulSet of apps/v1
	// or apps.kruise.io in the same namespace. Immutable.
	TargetReference TargetReference `json:"targetRef" protobuf:"bytes,1,opt,name=targetRef"`

	// PersistentPodAnnotations are pod annotations recorded with the topology.
	// +optional
	// +listType=atomic
	PersistentPodAnnotations []PersistentPodAnnotation `json:"persistentPodAnnotations,omitempty" protobuf:"bytes,2,rep,name=persistentPodAnnotations"`

	// RequiredPersistentTopology lists node labels (e.g. kubernetes.io/hostname,
	// topology.kubernetes.io/zone) a recreated pod must match again.
	// +optional
	RequiredPersistentTopology *NodeTopologyTerm `json:"requiredPersistentTopology,omitempty" protobuf:"bytes,3,opt,name=requiredPersistentTopology"`

	// PreferredPersistentTopology lists node labels a recreated pod prefers, with weights
	// (1-100).
	// +optional
	// +listType=atomic
	PreferredPersistentTopology []PreferredTopologyTerm `json:"preferredPersistentTopology,omitempty" protobuf:"bytes,4,rep,name=preferredPersistentTopology"`

	// PersistentPodStateRetentionPolicy: WhenScaled (default) drops the records of pods
	// the workload scaled away; WhenDeleted keeps them until the workload is deleted.
	// +optional
	PersistentPodStateRetentionPolicy PersistentPodStateRetentionPolicyType `json:"persistentPodStateRetentionPolicy,omitempty" protobuf:"bytes,5,opt,name=persistentPodStateRetentionPolicy,casttype=PersistentPodStateRetentionPolicyType"`
}

// PreferredTopologyTerm is a weighted NodeTopologyTerm.
type PreferredTopologyTerm struct {
	// Weight of the preference, 1-100.
	Weight int32 `json:"weight" protobuf:"varint,1,opt,name=weight"`
	// Preference is the node labels to prefer.
	Preference NodeTopologyTerm `json:"preference" protobuf:"bytes,2,opt,name=preference"`
}

// NodeTopologyTerm lists node label keys.
type NodeTopologyTerm struct {
	// Keys are node label keys (v1alpha1: nodeTopologyKeys).
	// +listType=atomic
	Keys []string `json:"keys" protobuf:"bytes,1,rep,name=keys"`
}

// PersistentPodAnnotation names a pod annotation to record.
type PersistentPodAnnotation struct {
	// Key of the annotation.
	Key string `json:"key" protobuf:"bytes,1,opt,name=key"`
}

// PersistentPodStateRetentionPolicyType says when records are dropped.
type PersistentPodStateRetentionPolicyType string

// The retention policies.
const (
	// PersistentPodStateRetentionPolicyWhenScaled drops a pod's record when the workload
	// is scaled below its ordinal.
	PersistentPodStateRetentionPolicyWhenScaled PersistentPodStateRetentionPolicyType = "WhenScaled"
	// PersistentPodStateRetentionPolicyWhenDeleted keeps every record until the workload
	// is deleted.
	PersistentPodStateRetentionPolicyWhenDeleted PersistentPodStateRetentionPolicyType = "WhenDeleted"
)

// PersistentPodStateStatus is what kruise-controller recorded.
type PersistentPodStateStatus struct {
	// ObservedGeneration is the generation the controller last acted on.
	ObservedGeneration int64 `json:"observedGeneration" protobuf:"varint,1,opt,name=observedGeneration"`
	// PodStates maps a pod's name to where it ran once it was ready.
	// +optional
	PodStates map[string]PodState `json:"podStates,omitempty" protobuf:"bytes,2,rep,name=podStates"`
}

// PodState is where one pod ran.
type PodState struct {
	// NodeName is the pod's spec.nodeName.
	// +optional
	NodeName string `json:"nodeName,omitempty" protobuf:"bytes,1,opt,name=nodeName"`
	// NodeTopologyLabels are the node's labels of the spec's topology keys, e.g.
	// kubernetes.io/hostname=node-1.
	// +optional
	NodeTopologyLabels map[string]string `json:"nodeTopologyLabels,omitempty" protobuf:"bytes,2,rep,name=nodeTopologyLabels"`
	// Annotations are the pod's values of the spec's persistentPodAnnotations.
	// +optional
	Annotations map[string]string `json:"annotations,omitempty" protobuf:"bytes,3,rep,name=annotations"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PersistentPodStateList is a list of PersistentPodStates.
type PersistentPodStateList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []PersistentPodState `json:"items" protobuf:"bytes,2,rep,name=items"`
}
