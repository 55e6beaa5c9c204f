package apps

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// WorkloadSpread spreads the pods of one existing workload over subsets of nodes
// (zones, node pools) without changing the workload: the pod webhook places each new
// pod in the first subset with room, the controller keeps the counts and makes
// scale-down empty the last subsets first.
type WorkloadSpread struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   WorkloadSpreadSpec
	Status WorkloadSpreadStatus
}

// WorkloadSpreadSpec names the workload and the ordered subsets.
type WorkloadSpreadSpec struct {
	TargetReference  *TargetReference
	Subsets          []WorkloadSpreadSubset
	ScheduleStrategy WorkloadSpreadScheduleStrategy
	// TargetFilter narrows the spread to the target's pods its selector matches, with
	// the replicas summed from ReplicasPathList; nil: all of the target's pods.
	TargetFilter *TargetFilter
}

// TargetFilter selects the part of a workload's pods a WorkloadSpread manages.
type TargetFilter struct {
	Selector         *metav1.LabelSelector
	ReplicasPathList []string
}

// TargetReference names a workload in the WorkloadSpread's namespace.
type TargetReference struct {
	APIVersion string
	Kind       string
	Name       string
}

// WorkloadSpreadSubset is one place pods can go, in order of preference.
type WorkloadSpreadSubset struct {
	Name                       string
	RequiredNodeSelectorTerm   *corev1.NodeSelectorTerm
	PreferredNodeSelectorTerms []corev1.PreferredSchedulingTerm
	Tolerations                []corev1.Toleration
	// MaxReplicas is a number or a percent of the workload's replicas; nil is unlimited.
	MaxReplicas *intstr.IntOrString
	// Patch is a strategic-merge patch applied to the pod.
	Patch runtime.RawExtension
}

// WorkloadSpreadScheduleStrategyType is Fixed or Adaptive.
type WorkloadSpreadScheduleStrategyType string

// Schedule strategies.
const (
	FixedWorkloadSpreadScheduleStrategyType    WorkloadSpreadScheduleStrategyType = "Fixed"
	AdaptiveWorkloadSpreadScheduleStrategyType WorkloadSpreadScheduleStrategyType = "Adaptive"
)

// WorkloadSpreadScheduleStrategy says whether a subset whose pods cannot be scheduled
// is skipped for a while (Adaptive) or not (Fixed).
type WorkloadSpreadScheduleStrategy struct {
	Type     WorkloadSpreadScheduleStrategyType
	Adaptive *AdaptiveWorkloadSpreadStrategy
}

// AdaptiveWorkloadSpreadStrategy tunes Adaptive.
type AdaptiveWorkloadSpreadStrategy struct {
	DisableSimulationSchedule bool
	RescheduleCriticalSeconds *int32
}

// WorkloadSpreadStatus holds one status per subset.
type WorkloadSpreadStatus struct {
	ObservedGeneration int64
	SubsetStatuses     []WorkloadSpreadSubsetStatus
	// VersionedSubsetStatuses: the subsets counted per pod version (pod-template-hash),
	// for Deployment and ReplicaSet targets.
	VersionedSubsetStatuses map[string]WorkloadSpreadSubsetStatusList
}

// WorkloadSpreadSubsetStatusList is one version's subset statuses.
type WorkloadSpreadSubsetStatusList []WorkloadSpreadSubsetStatus

// WorkloadSpreadSubsetStatus counts a subset's room and the pods in flight.
type WorkloadSpreadSubsetStatus struct {
	Name string
	// Replicas is how many active (not deleting) pods the subset holds.
	Replicas int32
	// MissingReplicas is the room left; -1 is unlimited.
	MissingReplicas int32
	// CreatingPods: pods the webhook admitted into the subset and the controller has not
	// seen yet, by name, with the admission time.
	CreatingPods map[string]metav1.Time
	// DeletingPods: pods of the subset being deleted, by name, with the time.
	DeletingPods map[string]metav1.Time
	Conditions   []WorkloadSpreadSubsetCondition
}

// WorkloadSpreadSubsetConditionType is a subset condition.
type WorkloadSpreadSubsetConditionType string

// SubsetSchedulable is False while the subset is skipped under Adaptive.
const SubsetSchedulable WorkloadSpreadSubsetConditionType = "Schedulable"

// WorkloadSpreadSubsetCondition is a condition of a subset.
type WorkloadSpreadSubsetCondition struct {
	Type               WorkloadSpreadSubsetConditionType
	Status             corev1.ConditionStatus
	LastTransitionTime metav1.Time
	Reason             string
	Message            string
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// WorkloadSpreadList is a list of WorkloadSpreads.
type WorkloadSpreadList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []WorkloadSpread
}
