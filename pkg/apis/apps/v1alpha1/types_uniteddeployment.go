package v1alpha1

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +genclient
// +genclient:method=GetScale,verb=get,subresource=scale,result=k8s.io/api/autoscaling/v1.Scale
// +genclient:method=UpdateScale,verb=update,subresource=scale,input=k8s.io/api/autoscaling/v1.Scale,result=k8s.io/api/autoscaling/v1.Scale
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// UnitedDeployment runs one application as several workloads, one per subset of nodes
// (a zone, a node pool), with an exact number of replicas in each.
type UnitedDeployment struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec UnitedDeploymentSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status UnitedDeploymentStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// UnitedDeploymentSpec is the desired state of a UnitedDeployment.
type UnitedDeploymentSpec struct {
	// Replicas is the total number of pods over every subset. Defaults to 1.
	// +optional
	// +default=1
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
	// Selector is a label query over the pods; it must match the workload template's
	// pod labels.
	Selector *metav1.LabelSelector `json:"selector" protobuf:"bytes,2,opt,name=selector"`
	// Template is the workload every subset runs: exactly one of its templates is set.
	// +optional
	Template SubsetTemplate `json:"template,omitempty" protobuf:"bytes,3,opt,name=template"`
	// Topology lists the subsets and how replicas are divided between them.
	// +optional
	Topology Topology `json:"topology,omitempty" protobuf:"bytes,4,opt,name=topology"`
	// UpdateStrategy says how a template change rolls out. Defaults to Manual.
	// +optional
	UpdateStrategy UnitedDeploymentUpdateStrategy `json:"updateStrategy,omitempty" protobuf:"bytes,5,opt,name=updateStrategy"`
	// RevisionHistoryLimit is how many old revisions are kept. Defaults to 10.
	// +optional
	// +default=10
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,6,opt,name=revisionHistoryLimit"`
}

// SubsetTemplate holds exactly one workload template; every subset is a workload of that kind.
type SubsetTemplate struct {
	// StatefulSetTemplate: each subset is a kube apps/v1 StatefulSet.
	// +optional
	StatefulSetTemplate *StatefulSetTemplateSpec `json:"statefulSetTemplate,omitempty" protobuf:"bytes,1,opt,name=statefulSetTemplate"`
	// AdvancedStatefulSetTemplate: each subset is an Advanced StatefulSet.
	// +optional
	AdvancedStatefulSetTemplate *AdvancedStatefulSetTemplateSpec `json:"advancedStatefulSetTemplate,omitempty" protobuf:"bytes,2,opt,name=advancedStatefulSetTemplate"`
	// CloneSetTemplate: each subset is a CloneSet.
	// +optional
	CloneSetTemplate *CloneSetTemplateSpec `json:"cloneSetTemplate,omitempty" protobuf:"bytes,3,opt,name=cloneSetTemplate"`
	// DeploymentTemplate: each subset is a kube apps/v1 Deployment.
	// +optional
	DeploymentTemplate *DeploymentTemplateSpec `json:"deploymentTemplate,omitempty" protobuf:"bytes,4,opt,name=deploymentTemplate"`
}

// StatefulSetTemplateSpec is the metadata and spec of the subsets' StatefulSets.
type StatefulSetTemplateSpec struct {
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              appsv1.StatefulSetSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// AdvancedStatefulSetTemplateSpec is the metadata and spec of the subsets' Advanced StatefulSets.
type AdvancedStatefulSetTemplateSpec struct {
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              StatefulSetSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// CloneSetTemplateSpec is the metadata and spec of the subsets' CloneSets.
type CloneSetTemplateSpec struct {
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              CloneSetSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// DeploymentTemplateSpec is the metadata and spec of the subsets' Deployments.
type DeploymentTemplateSpec struct {
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              appsv1.DeploymentSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// UpdateStrategyType names how a UnitedDeployment's template change rolls out.
// +enum
type UpdateStrategyType string

const (
	// ManualUpdateStrategyType rolls every subset out down to its partition.
	ManualUpdateStrategyType UpdateStrategyType = "Manual"
)

// UnitedDeploymentUpdateStrategy says how a template change rolls out.
type UnitedDeploymentUpdateStrategy struct {
	// Type is Manual (the default).
	// +optional
	Type UpdateStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=UpdateStrategyType"`
	// ManualUpdate holds the partitions of the Manual strategy.
	// +optional
	ManualUpdate *ManualUpdate `json:"manualUpdate,omitempty" protobuf:"bytes,2,opt,name=manualUpdate"`
}

// ManualUpdate holds back pods per subset.
type ManualUpdate struct {
	// Partitions maps a subset name to how many of its pods keep the old revision
	// (the subset workload's partition).
	// +optional
	Partitions map[string]int32 `json:"partitions,omitempty" protobuf:"bytes,1,rep,name=partitions"`
}

// Topology lists the subsets and how pods move between them.
type Topology struct {
	// Subsets, in order: the order in which minReplicas and maxReplicas fill them.
	// +optional
	// +patchMergeKey=name
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=name
	Subsets []Subset `json:"subsets,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,1,rep,name=subsets"`
	// ScheduleStrategy is Fixed (the default) or Adaptive.
	// +optional
	ScheduleStrategy UnitedDeploymentScheduleStrategy `json:"scheduleStrategy,omitempty" protobuf:"bytes,2,opt,name=scheduleStrategy"`
}

// Subset is one group of nodes and the share of replicas it runs.
type Subset struct {
	// Name is a DNS label, unique in the UnitedDeployment; the subset's workload is
	// named <unitedDeployment>-<name>-<random>.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// NodeSelectorTerm is added to the required node affinity of the subset's pods.
	// +optional
	NodeSelectorTerm corev1.NodeSelectorTerm `json:"nodeSelectorTerm,omitempty" protobuf:"bytes,2,opt,name=nodeSelectorTerm"`
	// Tolerations are added to the subset's pods.
	// +optional
	// +listType=atomic
	Tolerations []corev1.Toleration `json:"tolerations,omitempty" protobuf:"bytes,3,rep,name=tolerations"`
	// Replicas is a number or a percent of spec.replicas. Unset: the subsets without
	// replicas share what the others leave.
	// +optional
	Replicas *intstr.IntOrString `json:"replicas,omitempty" protobuf:"bytes,4,opt,name=replicas"`
	// MinReplicas is the least the subset runs; subsets reach their minimum in order.
	// +optional
	MinReplicas *intstr.IntOrString `json:"minReplicas,omitempty" protobuf:"bytes,6,opt,name=minReplicas"`
	// MaxReplicas is the most the subset runs; unset means no limit.
	// +optional
	MaxReplicas *intstr.IntOrString `json:"maxReplicas,omitempty" protobuf:"bytes,7,opt,name=maxReplicas"`
	// Patch is a strategic merge patch over the subset workload's pod template, e.g.
	// {"metadata":{"labels":{...}}} or container resources. Omitted when unset.
	// +optional
	Patch runtime.RawExtension `json:"patch,omitzero" protobuf:"bytes,5,opt,name=patch"`
}

// UnitedDeploymentScheduleStrategyType names how pods that cannot be scheduled are handled.
// +enum
type UnitedDeploymentScheduleStrategyType string

const (
	// AdaptiveUnitedDeploymentScheduleStrategyType moves pods that stay unschedulable
	// to the next subset, and back when room returns.
	AdaptiveUnitedDeploymentScheduleStrategyType UnitedDeploymentScheduleStrategyType = "Adaptive"
	// FixedUnitedDeploymentScheduleStrategyType keeps pods in their subset.
	FixedUnitedDeploymentScheduleStrategyType UnitedDeploymentScheduleStrategyType = "Fixed"
)

// UnitedDeploymentScheduleStrategy is Fixed or Adaptive.
type UnitedDeploymentScheduleStrategy struct {
	// Type is Fixed (the default, also when empty) or Adaptive.
	// +optional
	Type UnitedDeploymentScheduleStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=UnitedDeploymentScheduleStrategyType"`
	// Adaptive tunes the Adaptive strategy.
	// +optional
	Adaptive *AdaptiveUnitedDeploymentStrategy `json:"adaptive,omitempty" protobuf:"bytes,2,opt,name=adaptive"`
}

// AdaptiveUnitedDeploymentStrategy tunes the Adaptive strategy.
type AdaptiveUnitedDeploymentStrategy struct {
	// RescheduleCriticalSeconds is how long a pod may stay unschedulable before its
	// subset counts as full and its replicas move on. Defaults to 30.
	// +optional
	RescheduleCriticalSeconds *int32 `json:"rescheduleCriticalSeconds,omitempty" protobuf:"varint,1,opt,name=rescheduleCriticalSeconds"`
	// UnschedulableDuration is how long a full subset stays so before it is given its
	// replicas back (OpenKruise v1.9's name). Defaults to 300.
	// +optional
	UnschedulableDuration *int32 `json:"unschedulableDuration,omitempty" protobuf:"varint,3,opt,name=unschedulableDuration"`
	// UnschedulableLastSeconds is OpenKruise v1.8's name of unschedulableDuration, used
	// when that is unset.
	// +optional
	UnschedulableLastSeconds *int32 `json:"unschedulableLastSeconds,omitempty" protobuf:"varint,2,opt,name=unschedulableLastSeconds"`
	// ReserveUnschedulablePods keeps pods that cannot be scheduled in their subset
	// (reserved, counted in status.reservedPods) instead of deleting them, and runs
	// temporary pods for them in the next subsets until they are ready.
	// +optional
	ReserveUnschedulablePods bool `json:"reserveUnschedulablePods,omitempty" protobuf:"varint,4,opt,name=reserveUnschedulablePods"`
}

// UnitedDeploymentConditionType names a UnitedDeployment condition.
type UnitedDeploymentConditionType string

const (
	// SubsetProvisioned: every subset's workload exists and no other does.
	SubsetProvisioned UnitedDeploymentConditionType = "SubsetProvisioned"
	// SubsetUpdated: every subset's workload has the current template.
	SubsetUpdated UnitedDeploymentConditionType = "SubsetUpdated"
	// SubsetFailure: a subset's workload could not be written.
	SubsetFailure UnitedDeploymentConditionType = "SubsetFailure"
)

// UnitedDeploymentStatus is what the controller observed.
type UnitedDeploymentStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	// ReadyReplicas is the number of ready pods over every subset.
	// +optional
	ReadyReplicas int32 `json:"readyReplicas,omitempty" protobuf:"varint,2,opt,name=readyReplicas"`
	// Replicas is the number of pods over every subset.
	Replicas int32 `json:"replicas" protobuf:"varint,3,opt,name=replicas"`
	// UpdatedReplicas is the number of pods of the current template.
	UpdatedReplicas int32 `json:"updatedReplicas" protobuf:"varint,4,opt,name=updatedReplicas"`
	// UpdatedReadyReplicas is the number of ready pods of the current template.
	// +optional
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas,omitempty" protobuf:"varint,5,opt,name=updatedReadyReplicas"`
	// CollisionCount avoids revision name collisions.
	// +optional
	CollisionCount *int32 `json:"collisionCount,omitempty" protobuf:"varint,6,opt,name=collisionCount"`
	// CurrentRevision is the revision of the current template.
	CurrentRevision string `json:"currentRevision" protobuf:"bytes,7,opt,name=currentRevision"`
	// SubsetReplicas is the number of replicas each subset is given.
	// +optional
	SubsetReplicas map[string]int32 `json:"subsetReplicas,omitempty" protobuf:"bytes,8,rep,name=subsetReplicas"`
	// SubsetStatuses hold each subset's conditions (Schedulable for Adaptive).
	// +optional
	// +listType=atomic
	SubsetStatuses []UnitedDeploymentSubsetStatus `json:"subsetStatuses,omitempty" protobuf:"bytes,12,rep,name=subsetStatuses"`
	// +optional
	// +listType=atomic
	Conditions []UnitedDeploymentCondition `json:"conditions,omitempty" protobuf:"bytes,9,rep,name=conditions"`
	// UpdateStatus is the rollout's progress.
	// +optional
	UpdateStatus *UpdateStatus `json:"updateStatus,omitempty" protobuf:"bytes,10,opt,name=updateStatus"`
	// LabelSelector is spec.selector in string form, for the scale subresource (HPA).
	// +optional
	LabelSelector string `json:"labelSelector,omitempty" protobuf:"bytes,11,opt,name=labelSelector"`
	// ReservedPods is the number of reserved pods over every subset
	// (adaptive.reserveUnschedulablePods).
	// +optional
	ReservedPods int32 `json:"reservedPods,omitempty" protobuf:"varint,13,opt,name=reservedPods"`
}

// UnitedDeploymentCondition is one condition of a UnitedDeployment.
type UnitedDeploymentCondition struct {
	// +optional
	Type UnitedDeploymentConditionType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=UnitedDeploymentConditionType"`
	// +optional
	Status corev1.ConditionStatus `json:"status,omitempty" protobuf:"bytes,2,opt,name=status,casttype=k8s.io/api/core/v1.ConditionStatus"`
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// +optional
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// UpdateStatus is the rollout's progress.
type UpdateStatus struct {
	// UpdatedRevision is the revision the subsets roll out to.
	// +optional
	UpdatedRevision string `json:"updatedRevision,omitempty" protobuf:"bytes,1,opt,name=updatedRevision"`
	// CurrentPartitions is each subset's partition as written to its workload.
	// +optional
	CurrentPartitions map[string]int32 `json:"currentPartitions,omitempty" protobuf:"bytes,2,rep,name=currentPartitions"`
}

// UnitedDeploymentSubsetStatus is one subset's observed state.
type UnitedDeploymentSubsetStatus struct {
	// Name of the subset.
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	// Replicas is the number of pods of the subset.
	// +optional
	Replicas int32 `json:"replicas,omitempty" protobuf:"varint,2,opt,name=replicas"`
	// ReadyReplicas is the number of ready pods of the subset.
	// +optional
	ReadyReplicas int32 `json:"readyReplicas,omitempty" protobuf:"varint,5,opt,name=readyReplicas"`
	// Partition is the subset workload's partition.
	// +optional
	Partition int32 `json:"partition,omitempty" protobuf:"varint,3,opt,name=partition"`
	// ReservedPods is the number of the subset's pods that cannot be scheduled and are
	// kept (adaptive.reserveUnschedulablePods).
	// +optional
	ReservedPods int32 `json:"reservedPods,omitempty" protobuf:"varint,6,opt,name=reservedPods"`
	// +optional
	// +listType=atomic
	Conditions []UnitedDeploymentSubsetCondition `json:"conditions,omitempty" protobuf:"bytes,4,rep,name=conditions"`
}

// UnitedDeploymentSubsetConditionType names a subset condition.
type UnitedDeploymentSubsetConditionType string

// UnitedDeploymentSubsetSchedulable is False while new pods of the subset would stay pending.
const UnitedDeploymentSubsetSchedulable UnitedDeploymentSubsetConditionType = "Schedulable"

// UnitedDeploymentSubsetCondition is one condition of a subset.
type UnitedDeploymentSubsetCondition struct {
	Type   UnitedDeploymentSubsetConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=UnitedDeploymentSubsetConditionType"`
	Status corev1.ConditionStatus              `json:"status" protobuf:"bytes,2,opt,name=status,casttype=k8s.io/api/core/v1.ConditionStatus"`
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// +optional
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// UnitedDeploymentList is a list of UnitedDeployments.
type UnitedDeploymentList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []UnitedDeployment `json:"items" protobuf:"bytes,2,rep,name=items"`
}
