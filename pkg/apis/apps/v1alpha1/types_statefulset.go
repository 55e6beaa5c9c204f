package v1alpha1

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// +genclient
// +genclient:method=GetScale,verb=get,subresource=scale,result=k8s.io/api/autoscaling/v1.Scale
// +genclient:method=UpdateScale,verb=update,subresource=scale,input=k8s.io/api/autoscaling/v1.Scale,result=k8s.io/api/autoscaling/v1.Scale
// +genclient:method=Rollback,verb=create,subresource=rollback,input=StatefulSetRollback,result=StatefulSet
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// StatefulSet is the Advanced StatefulSet: a native StatefulSet plus parallel and
// in-place rollouts, reserved ordinals and scale limits.
type StatefulSet struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec StatefulSetSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status StatefulSetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// StatefulSetSpec is the desired state of an Advanced StatefulSet.
type StatefulSetSpec struct {
	// Replicas is the desired number of pods. Defaults to 1.
	// +optional
	// +default=1
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
	// Selector is a label query over pods; it must match the template's labels.
	Selector *metav1.LabelSelector `json:"selector" protobuf:"bytes,2,opt,name=selector"`
	// Template describes the pods that are created.
	Template corev1.PodTemplateSpec `json:"template" protobuf:"bytes,3,opt,name=template"`
	// VolumeClaimTemplates are claims that each pod gets its own copy of, named
	// <template>-<set>-<ordinal>.
	// +optional
	// +listType=atomic
	VolumeClaimTemplates []corev1.PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty" protobuf:"bytes,4,rep,name=volumeClaimTemplates"`
	// VolumeClaimUpdateStrategy says when changed volume claim templates reach PVCs.
	// +optional
	VolumeClaimUpdateStrategy VolumeClaimUpdateStrategy `json:"volumeClaimUpdateStrategy,omitempty" protobuf:"bytes,5,opt,name=volumeClaimUpdateStrategy"`
	// ServiceName is the headless service that governs the pods' network identity.
	// +optional
	ServiceName string `json:"serviceName,omitempty" protobuf:"bytes,6,opt,name=serviceName"`
	// PodManagementPolicy is OrderedReady (default: one pod at a time, in order) or Parallel.
	// +optional
	// +default="OrderedReady"
	PodManagementPolicy appsv1.PodManagementPolicyType `json:"podManagementPolicy,omitempty" protobuf:"bytes,7,opt,name=podManagementPolicy,casttype=k8s.io/api/apps/v1.PodManagementPolicyType"`
	// UpdateStrategy controls rollouts of template changes.
	// +optional
	UpdateStrategy StatefulSetUpdateStrategy `json:"updateStrategy,omitempty" protobuf:"bytes,8,opt,name=updateStrategy"`
	// RevisionHistoryLimit is how many old ControllerRevisions are kept. Defaults to 10.
	// +optional
	// +default=10
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,9,opt,name=revisionHistoryLimit"`
	// ReserveOrdinals are ordinals that get no pod; an entry is an ordinal or a range "a-b".
	// Replicas counts the pods that do run.
	// +optional
	// +listType=atomic
	ReserveOrdinals []intstr.IntOrString `json:"reserveOrdinals,omitempty" protobuf:"bytes,10,rep,name=reserveOrdinals"`
	// Lifecycle hooks for pre-delete and in-place update.
	// +optional
	Lifecycle *pub.Lifecycle `json:"lifecycle,omitempty" protobuf:"bytes,11,opt,name=lifecycle"`
	// ScaleStrategy limits how many pods may be unavailable while scaling (Parallel only).
	// +optional
	ScaleStrategy *StatefulSetScaleStrategy `json:"scaleStrategy,omitempty" protobuf:"bytes,12,opt,name=scaleStrategy"`
	// PersistentVolumeClaimRetentionPolicy says what happens to claims from
	// volumeClaimTemplates when the set is deleted or scaled down.
	// +optional
	// +default={}
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty" protobuf:"bytes,13,opt,name=persistentVolumeClaimRetentionPolicy"`
	// Ordinals moves the first ordinal from 0.
	// +optional
	Ordinals *StatefulSetOrdinals `json:"ordinals,omitempty" protobuf:"bytes,14,opt,name=ordinals"`
}

// VolumeClaimUpdateStrategyType says when changed volume claim templates reach PVCs.
// +enum
type VolumeClaimUpdateStrategyType string

const (
	OnPodRollingUpdateVolumeClaimUpdateStrategyType VolumeClaimUpdateStrategyType = "OnPodRollingUpdate"
	OnPVCDeleteVolumeClaimUpdateStrategyType        VolumeClaimUpdateStrategyType = "OnDelete"
)

// VolumeClaimUpdateStrategy says when changed volume claim templates reach PVCs.
type VolumeClaimUpdateStrategy struct {
	// +optional
	Type VolumeClaimUpdateStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=VolumeClaimUpdateStrategyType"`
}

// StatefulSetUpdateStrategy is RollingUpdate (with parameters) or OnDelete.
type StatefulSetUpdateStrategy struct {
	// Type is RollingUpdate (default) or OnDelete.
	// +optional
	Type appsv1.StatefulSetUpdateStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=k8s.io/api/apps/v1.StatefulSetUpdateStrategyType"`
	// RollingUpdate holds the parameters of a RollingUpdate.
	// +optional
	RollingUpdate *RollingUpdateStatefulSetStrategy `json:"rollingUpdate,omitempty" protobuf:"bytes,2,opt,name=rollingUpdate"`
}

// RollingUpdateStatefulSetStrategy are the parameters of a rolling update.
type RollingUpdateStatefulSetStrategy struct {
	// Partition: pods with an ordinal below it keep the old revision (with unorderedUpdate:
	// the number of pods that keep it). Defaults to 0.
	// +optional
	Partition *int32 `json:"partition,omitempty" protobuf:"varint,1,opt,name=partition"`
	// MaxUnavailable is how many pods may be down for the update at once (number or
	// percent, rounded down); values other than 1 need Parallel. Defaults to 1.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,2,opt,name=maxUnavailable"`
	// PodUpdatePolicy is ReCreate (default), InPlaceIfPossible or InPlaceOnly.
	// +optional
	PodUpdatePolicy PodUpdateStrategyType `json:"podUpdatePolicy,omitempty" protobuf:"bytes,3,opt,name=podUpdatePolicy,casttype=PodUpdateStrategyType"`
	// Paused stops the rollout; replicas are still managed.
	// +optional
	Paused bool `json:"paused,omitempty" protobuf:"varint,4,opt,name=paused"`
	// UnorderedUpdate updates pods by priority instead of by ordinal (Parallel only).
	// +optional
	UnorderedUpdate *UnorderedUpdateStrategy `json:"unorderedUpdate,omitempty" protobuf:"bytes,5,opt,name=unorderedUpdate"`
	// InPlaceUpdateStrategy tunes in-place updates.
	// +optional
	InPlaceUpdateStrategy *pub.InPlaceUpdateStrategy `json:"inPlaceUpdateStrategy,omitempty" protobuf:"bytes,6,opt,name=inPlaceUpdateStrategy"`
	// MinReadySeconds an updated pod must be ready before the rollout moves on; 0 to 300.
	// +optional
	MinReadySeconds *int32 `json:"minReadySeconds,omitempty" protobuf:"varint,7,opt,name=minReadySeconds"`
}

// UnorderedUpdateStrategy updates pods by priority instead of by ordinal.
type UnorderedUpdateStrategy struct {
	// +optional
	PriorityStrategy *pub.UpdatePriorityStrategy `json:"priorityStrategy,omitempty" protobuf:"bytes,1,opt,name=priorityStrategy"`
}

// PodUpdateStrategyType is how one pod is updated.
// +enum
type PodUpdateStrategyType string

const (
	RecreatePodUpdateStrategyType          PodUpdateStrategyType = "ReCreate"
	InPlaceIfPossiblePodUpdateStrategyType PodUpdateStrategyType = "InPlaceIfPossible"
	InPlaceOnlyPodUpdateStrategyType       PodUpdateStrategyType = "InPlaceOnly"
)

// PersistentVolumeClaimRetentionPolicyType is Retain or Delete.
// +enum
type PersistentVolumeClaimRetentionPolicyType string

const (
	RetainPersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Retain"
	DeletePersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Delete"
)

// StatefulSetPersistentVolumeClaimRetentionPolicy says what happens to claims from
// volumeClaimTemplates when the set is deleted or scaled down.
type StatefulSetPersistentVolumeClaimRetentionPolicy struct {
	// WhenDeleted is Retain (default) or Delete.
	// +optional
	// +default="Retain"
	WhenDeleted PersistentVolumeClaimRetentionPolicyType `json:"whenDeleted,omitempty" protobuf:"bytes,1,opt,name=whenDeleted,casttype=PersistentVolumeClaimRetentionPolicyType"`
	// WhenScaled is Retain (default) or Delete.
	// +optional
	// +default="Retain"
	WhenScaled PersistentVolumeClaimRetentionPolicyType `json:"whenScaled,omitempty" protobuf:"bytes,2,opt,name=whenScaled,casttype=PersistentVolumeClaimRetentionPolicyType"`
}

// StatefulSetOrdinals moves the first ordinal.
type StatefulSetOrdinals struct {
	// Start is the first ordinal. Defaults to 0.
	// +optional
	Start int32 `json:"start" protobuf:"varint,1,opt,name=start"`
}

// StatefulSetScaleStrategy limits scaling.
type StatefulSetScaleStrategy struct {
	// MaxUnavailable is how many pods may be unready while scaling up (Parallel only).
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,1,opt,name=maxUnavailable"`
}

// StatefulSetStatus is the observed state of an Advanced StatefulSet.
type StatefulSetStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	Replicas           int32 `json:"replicas" protobuf:"varint,2,opt,name=replicas"`
	ReadyReplicas      int32 `json:"readyReplicas" protobuf:"varint,3,opt,name=readyReplicas"`
	AvailableReplicas  int32 `json:"availableReplicas" protobuf:"varint,4,opt,name=availableReplicas"`
	CurrentReplicas    int32 `json:"currentReplicas" protobuf:"varint,5,opt,name=currentReplicas"`
	UpdatedReplicas    int32 `json:"updatedReplicas" protobuf:"varint,6,opt,name=updatedReplicas"`
	// +optional
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas,omitempty" protobuf:"varint,7,opt,name=updatedReadyReplicas"`
	// +optional
	UpdatedAvailableReplicas int32 `json:"updatedAvailableReplicas,omitempty" protobuf:"varint,8,opt,name=updatedAvailableReplicas"`
	// +optional
	CurrentRevision string `json:"currentRevision,omitempty" protobuf:"bytes,9,opt,name=currentRevision"`
	// +optional
	UpdateRevision string `json:"updateRevision,omitempty" protobuf:"bytes,10,opt,name=updateRevision"`
	// +optional
	CollisionCount *int32 `json:"collisionCount,omitempty" protobuf:"varint,11,opt,name=collisionCount"`
	// +optional
	// +patchMergeKey=type
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=type
	Conditions []appsv1.StatefulSetCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,12,rep,name=conditions"`
	// LabelSelector is the selector in string form, for the scale subresource and HPA.
	// +optional
	LabelSelector string `json:"labelSelector,omitempty" protobuf:"bytes,13,opt,name=labelSelector"`
	// +optional
	// +listType=atomic
	VolumeClaims []VolumeClaimStatus `json:"volumeClaims,omitempty" protobuf:"bytes,14,rep,name=volumeClaims"`
}

// VolumeClaimStatus reports how many replicas match a volume claim template.
type VolumeClaimStatus struct {
	VolumeClaimName         string `json:"volumeClaimName" protobuf:"bytes,1,opt,name=volumeClaimName"`
	CompatibleReplicas      int32  `json:"compatibleReplicas" protobuf:"varint,2,opt,name=compatibleReplicas"`
	CompatibleReadyReplicas int32  `json:"compatibleReadyReplicas" protobuf:"varint,3,opt,name=compatibleReadyReplicas"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// StatefulSetList is a list of Advanced StatefulSets.
type StatefulSetList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []StatefulSet `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// StatefulSetRollback is the body of POST .../statefulsets/<name>/rollback: it restores
// the pod template of an earlier revision.
type StatefulSetRollback struct {
	metav1.TypeMeta `json:",inline"`
	// Name of the StatefulSet; must match the URL when set.
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	// ToRevision is the revision number to restore; 0 means the previous revision.
	// +optional
	ToRevision int64 `json:"toRevision,omitempty" protobuf:"varint,2,opt,name=toRevision"`
}
