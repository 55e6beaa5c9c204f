package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// PodUnavailableBudgetSpec names the pods the budget guards and how many of them may
// be unavailable at a time.
type PodUnavailableBudgetSpec struct {
	// Selector is a label query over the pods the budget guards. Selector and
	// targetRef are mutually exclusive.
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty" protobuf:"bytes,1,opt,name=selector"`

	// TargetReference names the workload (CloneSet, Advanced StatefulSet, Deployment,
	// ReplicaSet, StatefulSet) whose pods the budget guards and whose replicas it counts.
	// +optional
	TargetReference *TargetReference `json:"targetRef,omitempty" protobuf:"bytes,2,opt,name=targetRef"`

	// MaxUnavailable: deleting, evicting or updating a pod in place is allowed if at
	// most this many of the pods (number or percent of the replicas) are unavailable
	// afterwards. Mutually exclusive with minAvailable.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,3,opt,name=maxUnavailable"`

	// MinAvailable: deleting, evicting or updating a pod in place is allowed if at
	// least this many of the pods (number or percent of the replicas) are still
	// available afterwards. Mutually exclusive with maxUnavailable.
	// +optional
	MinAvailable *intstr.IntOrString `json:"minAvailable,omitempty" protobuf:"bytes,4,opt,name=minAvailable"`

	// ProtectOperations are the disruptions the budget guards, of DELETE, EVICT and
	// UPDATE; empty means all three.
	// +optional
	// +listType=atomic
	ProtectOperations []PubOperation `json:"protectOperations,omitempty" protobuf:"bytes,5,rep,name=protectOperations,casttype=PubOperation"`

	// ProtectTotalReplicas overrides the replicas the budget counts, for pods whose
	// workload has none to read.
	// +optional
	ProtectTotalReplicas *int32 `json:"protectTotalReplicas,omitempty" protobuf:"varint,6,opt,name=protectTotalReplicas"`

	// IgnoredPodSelector selects pods the budget never guards nor counts.
	// +optional
	IgnoredPodSelector *metav1.LabelSelector `json:"ignoredPodSelector,omitempty" protobuf:"bytes,7,opt,name=ignoredPodSelector"`
}

// PubOperation is a disruption a budget guards: DELETE, EVICT or UPDATE.
type PubOperation string

// TargetReference names a workload in the budget's namespace.
type TargetReference struct {
	// API version of the referent.
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,1,opt,name=apiVersion"`
	// Kind of the referent.
	Kind string `json:"kind,omitempty" protobuf:"bytes,2,opt,name=kind"`
	// Name of the referent.
	Name string `json:"name,omitempty" protobuf:"bytes,3,opt,name=name"`
}

// PodUnavailableBudgetStatus is what the controller observed and what the pod
// webhook has consumed since.
type PodUnavailableBudgetStatus struct {
	// ObservedGeneration is the most recent generation the controller acted on;
	// unavailableAllowed is valid only when it equals metadata.generation.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration" protobuf:"varint,1,opt,name=observedGeneration"`

	// DisruptedPods are pods whose deletion or eviction the webhook let through but
	// the controller has not yet seen go, with the time they were let through.
	// +optional
	DisruptedPods map[string]metav1.Time `json:"disruptedPods,omitempty" protobuf:"bytes,2,rep,name=disruptedPods"`

	// UnavailablePods are pods whose in-place update the webhook let through, until
	// the controller sees them updated and ready again.
	// +optional
	UnavailablePods map[string]metav1.Time `json:"unavailablePods,omitempty" protobuf:"bytes,3,rep,name=unavailablePods"`

	// UnavailableAllowed is how many more pods may be disrupted now.
	UnavailableAllowed int32 `json:"unavailableAllowed" protobuf:"varint,4,opt,name=unavailableAllowed"`

	// CurrentAvailable is the number of available pods.
	CurrentAvailable int32 `json:"currentAvailable" protobuf:"varint,5,opt,name=currentAvailable"`

	// DesiredAvailable is the minimum number of available pods the budget keeps.
	DesiredAvailable int32 `json:"desiredAvailable" protobuf:"varint,6,opt,name=desiredAvailable"`

	// TotalReplicas is the number of pods the budget counts.
	TotalReplicas int32 `json:"totalReplicas" protobuf:"varint,7,opt,name=totalReplicas"`
}

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodUnavailableBudget limits how many of a set of pods may be unavailable through
// voluntary disruptions at a time: deletion, eviction and in-place updates
// (`kubectl get pub`).
type PodUnavailableBudget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec   PodUnavailableBudgetSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status PodUnavailableBudgetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodUnavailableBudgetList is a list of PodUnavailableBudgets.
type PodUnavailableBudgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []PodUnavailableBudget `json:"items" protobuf:"bytes,2,rep,name=items"`
}
