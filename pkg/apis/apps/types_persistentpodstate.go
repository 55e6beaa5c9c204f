package apps

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PersistentPodState records where each pod of a StatefulSet (kube's or Advanced) ran —
// the node and the node labels its spec names — so that a pod recreated under the same
// name is given node affinity back to that topology (kruise-apiserver's pod webhook).
type PersistentPodState struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   PersistentPodStateSpec
	Status PersistentPodStateStatus
}

// PersistentPodStateSpec is the workload and the topology to keep.
type PersistentPodStateSpec struct {
	// TargetReference is the StatefulSet (apps/v1 or apps.kruise.io) in the same
	// namespace; immutable.
	TargetReference TargetReference
	// PersistentPodAnnotations are pod annotations recorded with the topology.
	PersistentPodAnnotations []PersistentPodAnnotation
	// RequiredPersistentTopology: node labels a recreated pod must match again.
	RequiredPersistentTopology *NodeTopologyTerm
	// PreferredPersistentTopology: node labels a recreated pod prefers, with weights.
	PreferredPersistentTopology []PreferredTopologyTerm
	// PersistentPodStateRetentionPolicy is WhenScaled (the default, also when empty:
	// records of ordinals scaled away are dropped) or WhenDeleted (kept until the
	// workload is deleted).
	PersistentPodStateRetentionPolicy PersistentPodStateRetentionPolicyType
}

// PreferredTopologyTerm is a weighted NodeTopologyTerm.
type PreferredTopologyTerm struct {
	Weight     int32
	Preference NodeTopologyTerm
}

// NodeTopologyTerm lists node label keys (v1alpha1 nodeTopologyKeys, v1beta1 keys).
type NodeTopologyTerm struct {
	NodeTopologyKeys []string
}

// PersistentPodAnnotation names a pod annotation to record.
type PersistentPodAnnotation struct {
	Key string
}

// PersistentPodStateRetentionPolicyType says when records are dropped.
type PersistentPodStateRetentionPolicyType string

// The retention policies.
const (
	PersistentPodStateRetentionPolicyWhenScaled  PersistentPodStateRetentionPolicyType = "WhenScaled"
	PersistentPodStateRetentionPolicyWhenDeleted PersistentPodStateRetentionPolicyType = "WhenDeleted"
)

// PersistentPodStateStatus is what kruise-controller recorded.
type PersistentPodStateStatus struct {
	ObservedGeneration int64
	// PodStates by pod name.
	PodStates map[string]PodState
}

// PodState is where one pod ran once it was ready.
type PodState struct {
	NodeName string
	// NodeTopologyLabels are the node's values of the spec's topology keys.
	NodeTopologyLabels map[string]string
	// Annotations are the pod's values of the spec's persistent annotations.
	Annotations map[string]string
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PersistentPodStateList is a list of PersistentPodStates.
type PersistentPodStateList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []PersistentPodState
}

// The workload annotations from which kruise-controller generates a PersistentPodState
// named like the workload and owned by it (OpenKruise's names). The topology values are
// comma-separated node label keys; a preferred one gets weight 100.
const (
	AnnotationAutoGeneratePersistentPodState = "kruise.io/auto-generate-persistent-pod-state"
	AnnotationRequiredPersistentTopology     = "kruise.io/required-persistent-topology"
	AnnotationPreferredPersistentTopology    = "kruise.io/preferred-persistent-topology"
	AnnotationPersistentPodAnnotations       = "kruise.io/persistent-pod-annotations"
	// AnnotationInjectedPersistentPodState on a pod names the PersistentPodState whose
	// record the pod webhook turned into node affinity.
	AnnotationInjectedPersistentPodState = "kruise.io/injected-persistent-pod-state"
)
