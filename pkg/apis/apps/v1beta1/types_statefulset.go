package v1beta1

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
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec StatefulSetSpec `json:"spec,omitempty"`
	// +optional
	Status StatefulSetStatus `json:"status,omitempty"`
}

// StatefulSetSpec is the desired state of an Advanced StatefulSet.
type StatefulSetSpec struct {
	// Replicas is the desired number of pods. Defaults to 1.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// Selector is a label query over pods; it must match the template's labels.
	Selector *metav1.LabelSelector `json:"selector"`
	// Template describes the pods that are created.
	Template corev1.PodTemplateSpec `json:"template"`
	// VolumeClaimTemplates are claims that each pod gets its own copy of, named
	// <template>-<set>-<ordinal>.
	// +optional
	// +listType=atomic
	VolumeClaimTemplates []corev1.PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty"`
	// VolumeClaimUpdateStrategy says when changed volume claim templates reach PVCs.
	// +optional
	VolumeClaimUpdateStrategy VolumeClaimUpdateStrategy `json:"volumeClaimUpdateStrategy,omitempty"`
	// ServiceName is the headless service that governs the pods' network identity.
	// +optional
	ServiceName string `json:"serviceName,omitempty"`
	// PodManagementPolicy is OrderedReady (default: one pod at a time, in order) or Parallel.
	// +optional
	PodManagementPolicy appsv1.PodManagementPolicyType `json:"podManagementPolicy,omitempty"`
	// UpdateStrategy controls rollouts of template changes.
	// +optional
	UpdateStrategy StatefulSetUpdateStrategy `json:"updateStrategy,omitempty"`
	// RevisionHistoryLimit is how many old ControllerRevisions are kept. Defaults to 10.
	// +optional
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// ReserveOrdinals are ordinals that get no pod; an entry is an ordinal or a range "a-b".
	// Replicas counts the pods that do run.
	// +optional
	// +listType=atomic
	ReserveOrdinals []intstr.IntOrString `json:"reserveOrdinals,omitempty"`
	// Lifecycle hooks for pre-delete and in-place update.
	// +optional
	Lifecycle *pub.Lifecycle `json:"lifecycle,omitempty"`
	// ScaleStrategy limits how many pods may be unavailable while scaling (Parallel only).
	// +optional
	ScaleStrategy *StatefulSetScaleStrategy `json:"scaleStrategy,omitempty"`
	// PersistentVolumeClaimRetentionPolicy says what happens to claims from
	// volumeClaimTemplates when the set is deleted or scaled down.
	// +optional
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty"`
	// Ordinals moves the first ordinal from 0.
	// +optional
	Ordinals *StatefulSetOrdinals `json:"ordinals,omitempty"`
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
	Type VolumeClaimUpdateStrategyType `json:"type,omitempty"`
}

// StatefulSetUpdateStrategy is RollingUpdate (with parameters) or OnDelete.
type StatefulSetUpdateStrategy struct {
	// Type is RollingUpdate (default) or OnDelete.
	// +optional
	Type appsv1.StatefulSetUpdateStrategyType `json:"type,omitempty"`
	// RollingUpdate holds the parameters of a RollingUpdate.
	// +optional
	RollingUpdate *RollingUpdateStatefulSetStrategy `json:"rollingUpdate,omitempty"`
}

// RollingUpdateStatefulSetStrategy are the parameters of a rolling update.
type RollingUpdateStatefulSetStrategy struct {
	// Partition: pods with an ordinal below it keep the old revision (with unorderedUpdate:
	// the number of pods that keep it). Defaults to 0.
	// +optional
	Partition *int32 `json:"partition,omitempty"`
	// MaxUnavailable is how many pods may be down for the update at once (number or
	// percent, rounded down); values other than 1 need Parallel. Defaults to 1.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	// PodUpdatePolicy is ReCreate (default), InPlaceIfPossible or InPlaceOnly.
	// +optional
	PodUpdatePolicy PodUpdateStrategyType `json:"podUpdatePolicy,omitempty"`
	// Paused stops the rollout; replicas are still managed.
	// +optional
	Paused bool `json:"paused,omitempty"`
	// UnorderedUpdate updates pods by priority instead of by ordinal (Parallel only).
	// +optional
	UnorderedUpdate *UnorderedUpdateStrategy `json:"unorderedUpdate,omitempty"`
	// InPlaceUpdateStrategy tunes in-place updates.
	// +optional
	InPlaceUpdateStrategy *pub.InPlaceUpdateStrategy `json:"inPlaceUpdateStrategy,omitempty"`
	// MinReadySeconds an updated pod must be ready before the rollout moves on; 0 to 300.
	// +optional
	MinReadySeconds *int32 `json:"minReadySeconds,omitempty"`
}

// UnorderedUpdateStrategy updates pods by priority instead of by ordinal.
type UnorderedUpdateStrategy struct {
	// +optional
	PriorityStrategy *pub.UpdatePriorityStrategy `json:"priorityStrategy,omitempty"`
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
	WhenDeleted PersistentVolumeClaimRetentionPolicyType `json:"whenDeleted,omitempty"`
	// WhenScaled is Retain (default) or Delete.
	// +optional
	WhenScaled PersistentVolumeClaimRetentionPolicyType `json:"whenScaled,omitempty"`
}

// StatefulSetOrdinals moves the first ordinal.
type StatefulSetOrdinals struct {
	// Start is the first ordinal. Defaults to 0.
	// +optional
	Start int32 `json:"start"`
}

// StatefulSetScaleStrategy limits scaling.
type StatefulSetScaleStrategy struct {
	// MaxUnavailable is how many pods may be unready while scaling up (Parallel only).
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
}

// StatefulSetStatus is the observed state of an Advanced StatefulSet.
type StatefulSetStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	Replicas           int32 `json:"replicas"`
	ReadyReplicas      int32 `json:"readyReplicas"`
	AvailableReplicas  int32 `json:"availableReplicas"`
	CurrentReplicas    int32 `json:"currentReplicas"`
	UpdatedReplicas    int32 `json:"updatedReplicas"`
	// +optional
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas,omitempty"`
	// +optional
	UpdatedAvailableReplicas int32 `json:"updatedAvailableReplicas,omitempty"`
	// +optional
	CurrentRevision string `json:"currentRevision,omitempty"`
	// +optional
	UpdateRevision string `json:"updateRevision,omitempty"`
	// +optional
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// +optional
	// +patchMergeKey=type
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=type
	Conditions []appsv1.StatefulSetCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
	// LabelSelector is the selector in string form, for the scale subresource and HPA.
	// +optional
	LabelSelector string `json:"labelSelector,omitempty"`
	// +optional
	// +listType=atomic
	VolumeClaims []VolumeClaimStatus `json:"volumeClaims,omitempty"`
}

// VolumeClaimStatus reports how many replicas match a volume claim template.
type VolumeClaimStatus struct {
	VolumeClaimName         string `json:"volumeClaimName"`
	CompatibleReplicas      int32  `json:"compatibleReplicas"`
	CompatibleReadyReplicas int32  `json:"compatibleReadyReplicas"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// StatefulSetList is a list of Advanced StatefulSets.
type StatefulSetList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []StatefulSet `json:"items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// StatefulSetRollback is the body of POST .../statefulsets/<name>/rollback: it restores
// the pod template of an earlier revision.
type StatefulSetRollback struct {
	metav1.TypeMeta `json:",inline"`
	// Name of the StatefulSet; must match the URL when set.
	// +optional
	Name string `json:"name,omitempty"`
	// ToRevision is the revision number to restore; 0 means the previous revision.
	// +optional
	ToRevision int64 `json:"toRevision,omitempty"`
}
