package apps

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// UnitedDeployment runs one application as several workloads, one per subset of nodes
// (a zone, a node pool), with an exact number of replicas in each.
type UnitedDeployment struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   UnitedDeploymentSpec
	Status UnitedDeploymentStatus
}

// UnitedDeploymentSpec is the desired state of a UnitedDeployment; both versions share it.
type UnitedDeploymentSpec struct {
	// Replicas is the total over every subset.
	Replicas *int32
	Selector *metav1.LabelSelector
	// Template holds exactly one workload template.
	Template             SubsetTemplate
	Topology             Topology
	UpdateStrategy       UnitedDeploymentUpdateStrategy
	RevisionHistoryLimit *int32
}

// SubsetTemplate is a union: one workload template is set, and every subset is a
// workload of that kind.
type SubsetTemplate struct {
	StatefulSetTemplate         *StatefulSetTemplateSpec
	AdvancedStatefulSetTemplate *AdvancedStatefulSetTemplateSpec
	CloneSetTemplate            *CloneSetTemplateSpec
	DeploymentTemplate          *DeploymentTemplateSpec
}

// StatefulSetTemplateSpec is the metadata and spec of kube's StatefulSets created.
type StatefulSetTemplateSpec struct {
	metav1.ObjectMeta
	Spec appsv1.StatefulSetSpec
}

// AdvancedStatefulSetTemplateSpec is the metadata and spec of the Advanced StatefulSets created.
type AdvancedStatefulSetTemplateSpec struct {
	metav1.ObjectMeta
	Spec StatefulSetSpec
}

// CloneSetTemplateSpec is the metadata and spec of the CloneSets created.
type CloneSetTemplateSpec struct {
	metav1.ObjectMeta
	Spec CloneSetSpec
}

// DeploymentTemplateSpec is the metadata and spec of kube's Deployments created.
type DeploymentTemplateSpec struct {
	metav1.ObjectMeta
	Spec appsv1.DeploymentSpec
}

// UpdateStrategyType names how a template change rolls out.
type UpdateStrategyType string

// ManualUpdateStrategyType: each subset's workload rolls out down to its partition.
const ManualUpdateStrategyType UpdateStrategyType = "Manual"

// UnitedDeploymentUpdateStrategy says how a template change rolls out.
type UnitedDeploymentUpdateStrategy struct {
	Type         UpdateStrategyType
	ManualUpdate *ManualUpdate
}

// ManualUpdate holds back pods per subset.
type ManualUpdate struct {
	// Partitions maps a subset name to how many of its pods keep the old revision.
	Partitions map[string]int32
}

// Topology lists the subsets and how pods move between them.
type Topology struct {
	Subsets          []Subset
	ScheduleStrategy UnitedDeploymentScheduleStrategy
}

// Subset is one group of nodes and the share of replicas it runs.
type Subset struct {
	Name             string
	NodeSelectorTerm corev1.NodeSelectorTerm
	Tolerations      []corev1.Toleration
	// Replicas is a number, a percent of spec.replicas, or unset (a share of the rest).
	Replicas *intstr.IntOrString
	// MinReplicas and MaxReplicas bound an elastic subset (exclusive with Replicas).
	MinReplicas *intstr.IntOrString
	MaxReplicas *intstr.IntOrString
	// Patch is a strategic merge patch applied to the subset workload's pod template.
	Patch runtime.RawExtension
}

// UnitedDeploymentScheduleStrategyType names how pods that cannot be scheduled are handled.
type UnitedDeploymentScheduleStrategyType string

const (
	// AdaptiveUnitedDeploymentScheduleStrategyType moves pods that stay unschedulable
	// to the next subset.
	AdaptiveUnitedDeploymentScheduleStrategyType UnitedDeploymentScheduleStrategyType = "Adaptive"
	// FixedUnitedDeploymentScheduleStrategyType keeps pods in their subset.
	FixedUnitedDeploymentScheduleStrategyType UnitedDeploymentScheduleStrategyType = "Fixed"
)

// UnitedDeploymentScheduleStrategy is Fixed (the default) or Adaptive.
type UnitedDeploymentScheduleStrategy struct {
	Type     UnitedDeploymentScheduleStrategyType
	Adaptive *AdaptiveUnitedDeploymentStrategy
}

// AdaptiveUnitedDeploymentStrategy tunes the Adaptive strategy.
type AdaptiveUnitedDeploymentStrategy struct {
	// RescheduleCriticalSeconds: how long a pod may stay unschedulable before its
	// subset counts as full (30 s when unset).
	RescheduleCriticalSeconds *int32
	// UnschedulableDuration (OpenKruise v1.9's name): how long a full subset stays so
	// before it is tried again (300 s when unset).
	UnschedulableDuration *int32
	// UnschedulableLastSeconds is v1.8's name of UnschedulableDuration, used when that
	// is unset.
	UnschedulableLastSeconds *int32
	// ReserveUnschedulablePods keeps the pods that cannot be scheduled in their subset
	// (reserved) and runs temporary pods for them in the next subsets, deleted once the
	// reserved pods are ready.
	ReserveUnschedulablePods bool
}

// UnitedDeploymentConditionType names a UnitedDeployment condition.
type UnitedDeploymentConditionType string

const (
	SubsetProvisioned UnitedDeploymentConditionType = "SubsetProvisioned"
	SubsetUpdated     UnitedDeploymentConditionType = "SubsetUpdated"
	SubsetFailure     UnitedDeploymentConditionType = "SubsetFailure"
)

// UnitedDeploymentStatus is what the controller observed.
type UnitedDeploymentStatus struct {
	ObservedGeneration   int64
	ReadyReplicas        int32
	Replicas             int32
	UpdatedReplicas      int32
	UpdatedReadyReplicas int32
	CollisionCount       *int32
	CurrentRevision      string
	SubsetReplicas       map[string]int32
	SubsetStatuses       []UnitedDeploymentSubsetStatus
	Conditions           []UnitedDeploymentCondition
	UpdateStatus         *UpdateStatus
	LabelSelector        string
	ReservedPods         int32
}

// UnitedDeploymentCondition is one condition of a UnitedDeployment.
type UnitedDeploymentCondition struct {
	Type               UnitedDeploymentConditionType
	Status             corev1.ConditionStatus
	LastTransitionTime metav1.Time
	Reason             string
	Message            string
}

// UpdateStatus is the rollout's progress.
type UpdateStatus struct {
	UpdatedRevision   string
	CurrentPartitions map[string]int32
}

// UnitedDeploymentSubsetStatus is one subset's observed state.
type UnitedDeploymentSubsetStatus struct {
	Name          string
	Replicas      int32
	ReadyReplicas int32
	Partition     int32
	ReservedPods  int32
	Conditions    []UnitedDeploymentSubsetCondition
}

// UnitedDeploymentSubsetConditionType names a subset condition.
type UnitedDeploymentSubsetConditionType string

// UnitedDeploymentSubsetSchedulable is False while new pods of the subset would stay pending.
const UnitedDeploymentSubsetSchedulable UnitedDeploymentSubsetConditionType = "Schedulable"

// UnitedDeploymentSubsetCondition is one condition of a subset.
type UnitedDeploymentSubsetCondition struct {
	Type               UnitedDeploymentSubsetConditionType
	Status             corev1.ConditionStatus
	LastTransitionTime metav1.Time
	Reason             string
	Message            string
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// UnitedDeploymentList is a list of UnitedDeployments.
type UnitedDeploymentList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []UnitedDeployment
}
