package v1alpha1

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// WorkloadSpread spreads the pods of one existing workload over subsets of nodes
// (zones, node pools) without changing the workload (`kubectl get ws`).
type WorkloadSpread struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec WorkloadSpreadSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status WorkloadSpreadStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// WorkloadSpreadSpec names the workload and the ordered subsets.
type WorkloadSpreadSpec struct {
	// TargetReference is the workload whose pods are spread: a CloneSet, Deployment,
	// ReplicaSet, Job or Advanced StatefulSet in the same namespace.
	TargetReference *TargetReference `json:"targetRef" protobuf:"bytes,1,opt,name=targetRef"`

	// Subsets in order of preference: a new pod goes to the first with room, and
	// scale-down empties the last first.
	// +patchMergeKey=name
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=name
	Subsets []WorkloadSpreadSubset `json:"subsets" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,2,rep,name=subsets"`

	// ScheduleStrategy is Fixed (default) or Adaptive.
	// +optional
	ScheduleStrategy WorkloadSpreadScheduleStrategy `json:"scheduleStrategy,omitempty" protobuf:"bytes,3,opt,name=scheduleStrategy"`

	// TargetFilter narrows the spread to part of the target's pods (OpenKruise v1.5+):
	// only pods its selector matches are placed and counted, and the replicas that
	// percent maxReplicas are taken of are the sum of replicasPathList's fields of the
	// target object.
	// +optional
	TargetFilter *TargetFilter `json:"targetFilter,omitempty" protobuf:"bytes,4,opt,name=targetFilter"`
}

// TargetFilter selects the part of a workload's pods a WorkloadSpread manages.
type TargetFilter struct {
	// Selector matches the pods the spread manages; nil matches every pod of the target.
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty" protobuf:"bytes,1,opt,name=selector"`
	// ReplicasPathList: dot-separated paths of integer fields in the target object
	// (e.g. spec.tfReplicaSpecs.Worker.replicas); their sum is the number of selected
	// replicas. Empty: the target's own replicas.
	// +optional
	// +listType=atomic
	ReplicasPathList []string `json:"replicasPathList,omitempty" protobuf:"bytes,2,rep,name=replicasPathList"`
}

// TargetReference names a workload in the WorkloadSpread's namespace.
type TargetReference struct {
	// APIVersion of the workload, e.g. apps/v1 or apps.kruise.io/v1alpha1.
	APIVersion string `json:"apiVersion" protobuf:"bytes,1,opt,name=apiVersion"`
	// Kind of the workload.
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	// Name of the workload.
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`
}

// WorkloadSpreadSubset is one place pods can go.
type WorkloadSpreadSubset struct {
	// Name of the subset, unique in the WorkloadSpread.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// RequiredNodeSelectorTerm is ANDed into every term of the pod's required node affinity.
	// +optional
	RequiredNodeSelectorTerm *corev1.NodeSelectorTerm `json:"requiredNodeSelectorTerm,omitempty" protobuf:"bytes,2,opt,name=requiredNodeSelectorTerm"`
	// PreferredNodeSelectorTerms are added to the pod's preferred node affinity.
	// +optional
	// +listType=atomic
	PreferredNodeSelectorTerms []corev1.PreferredSchedulingTerm `json:"preferredNodeSelectorTerms,omitempty" protobuf:"bytes,3,rep,name=preferredNodeSelectorTerms"`
	// Tolerations are added to the pod's.
	// +optional
	// +listType=atomic
	Tolerations []corev1.Toleration `json:"tolerations,omitempty" protobuf:"bytes,4,rep,name=tolerations"`
	// MaxReplicas is a number or a percent of the workload's replicas; unset is unlimited.
	// +optional
	MaxReplicas *intstr.IntOrString `json:"maxReplicas,omitempty" protobuf:"bytes,5,opt,name=maxReplicas"`
	// Patch is a strategic-merge patch applied to the pod, e.g. labels or resources.
	// +optional
	// +kubebuilder:pruning:PreserveUnknownFields
	Patch runtime.RawExtension `json:"patch,omitempty" protobuf:"bytes,6,opt,name=patch"`
}

// WorkloadSpreadScheduleStrategyType is Fixed or Adaptive.
type WorkloadSpreadScheduleStrategyType string

// Schedule strategies.
const (
	// FixedWorkloadSpreadScheduleStrategyType: a pod stays in its subset even if it
	// cannot be scheduled there.
	FixedWorkloadSpreadScheduleStrategyType WorkloadSpreadScheduleStrategyType = "Fixed"
	// AdaptiveWorkloadSpreadScheduleStrategyType: a subset whose pod stays unschedulable
	// longer than rescheduleCriticalSeconds is skipped for a while.
	AdaptiveWorkloadSpreadScheduleStrategyType WorkloadSpreadScheduleStrategyType = "Adaptive"
)

// WorkloadSpreadScheduleStrategy says what happens to a subset without room.
type WorkloadSpreadScheduleStrategy struct {
	// Type is Fixed or Adaptive.
	// +optional
	// +default="Fixed"
	Type WorkloadSpreadScheduleStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=WorkloadSpreadScheduleStrategyType"`
	// Adaptive tunes the Adaptive type.
	// +optional
	Adaptive *AdaptiveWorkloadSpreadStrategy `json:"adaptive,omitempty" protobuf:"bytes,2,opt,name=adaptive"`
}

// AdaptiveWorkloadSpreadStrategy tunes Adaptive.
type AdaptiveWorkloadSpreadStrategy struct {
	// DisableSimulationSchedule: do not check at admission whether the subset has a
	// node that fits the pod.
	// +optional
	DisableSimulationSchedule bool `json:"disableSimulationSchedule,omitempty" protobuf:"varint,1,opt,name=disableSimulationSchedule"`
	// RescheduleCriticalSeconds is how long a pod may stay unschedulable before its
	// subset is skipped and the pod recreated elsewhere.
	// +optional
	RescheduleCriticalSeconds *int32 `json:"rescheduleCriticalSeconds,omitempty" protobuf:"varint,2,opt,name=rescheduleCriticalSeconds"`
}

// WorkloadSpreadStatus holds one status per subset, in the spec's order.
type WorkloadSpreadStatus struct {
	// ObservedGeneration is the generation the status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	// SubsetStatuses: one per subset.
	// +optional
	// +listType=atomic
	SubsetStatuses []WorkloadSpreadSubsetStatus `json:"subsetStatuses,omitempty" protobuf:"bytes,2,rep,name=subsetStatuses"`

	// VersionedSubsetStatuses counts the subsets per pod version (the pod-template-hash
	// of a Deployment's or ReplicaSet's pods), so that during a rollout that surges, the
	// new version's pods fill each subset up to maxReplicas on their own instead of
	// finding it full of the old version's pods.
	// +optional
	VersionedSubsetStatuses map[string]WorkloadSpreadSubsetStatusList `json:"versionedSubsetStatuses,omitempty" protobuf:"bytes,3,rep,name=versionedSubsetStatuses"`
}

// WorkloadSpreadSubsetStatusList is one version's subset statuses (a JSON array).
// +protobuf.nullable=true
// +protobuf.options.(gogoproto.goproto_stringer)=false
type WorkloadSpreadSubsetStatusList []WorkloadSpreadSubsetStatus

func (l WorkloadSpreadSubsetStatusList) String() string {
	return fmt.Sprintf("%v", []WorkloadSpreadSubsetStatus(l))
}

// WorkloadSpreadSubsetStatus counts a subset's room and its pods in flight.
type WorkloadSpreadSubsetStatus struct {
	// Name of the subset.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// MissingReplicas is the room left in the subset; -1 is unlimited.
	// Replicas is how many active (not deleting) pods the subset holds.
	Replicas        int32 `json:"replicas" protobuf:"varint,6,opt,name=replicas"`
	MissingReplicas int32 `json:"missingReplicas" protobuf:"varint,2,opt,name=missingReplicas"`
	// CreatingPods: pods admitted into the subset that the controller has not seen yet,
	// by name, with the admission time.
	// +optional
	CreatingPods map[string]metav1.Time `json:"creatingPods,omitempty" protobuf:"bytes,3,rep,name=creatingPods"`
	// DeletingPods: pods of the subset being deleted, by name, with the time.
	// +optional
	DeletingPods map[string]metav1.Time `json:"deletingPods,omitempty" protobuf:"bytes,4,rep,name=deletingPods"`
	// Conditions of the subset (Schedulable).
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []WorkloadSpreadSubsetCondition `json:"conditions,omitempty" protobuf:"bytes,5,rep,name=conditions"`
}

// WorkloadSpreadSubsetConditionType is a subset condition.
type WorkloadSpreadSubsetConditionType string

// SubsetSchedulable is False while the subset is skipped under Adaptive.
const SubsetSchedulable WorkloadSpreadSubsetConditionType = "Schedulable"

// WorkloadSpreadSubsetCondition is a condition of a subset.
type WorkloadSpreadSubsetCondition struct {
	// Type of the condition.
	Type WorkloadSpreadSubsetConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=WorkloadSpreadSubsetConditionType"`
	// Status is True, False or Unknown.
	Status corev1.ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status,casttype=k8s.io/api/core/v1.ConditionStatus"`
	// LastTransitionTime is when Status last changed.
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// Reason is a CamelCase reason.
	// +optional
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// Message says more.
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// WorkloadSpreadAnnotation on a pod names the WorkloadSpread and subset that placed it,
// under OpenKruise's key and in its format: {"name":"<spread>","subset":"<subset>"}.
const WorkloadSpreadAnnotation = "apps.kruise.io/matched-workloadspread"

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// WorkloadSpreadList is a list of WorkloadSpreads.
type WorkloadSpreadList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []WorkloadSpread `json:"items" protobuf:"bytes,2,rep,name=items"`
}
