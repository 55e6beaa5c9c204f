package apps

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// MaxMinReadySeconds caps rollingUpdate.minReadySeconds of an Advanced StatefulSet.
const MaxMinReadySeconds = 300

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// StatefulSet is the Advanced StatefulSet: a native StatefulSet plus parallel and
// in-place rollouts, reserved ordinals and scale limits.
type StatefulSet struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   StatefulSetSpec
	Status StatefulSetStatus
}

// StatefulSetSpec is the desired state of an Advanced StatefulSet.
type StatefulSetSpec struct {
	Replicas                  *int32
	Selector                  *metav1.LabelSelector
	Template                  corev1.PodTemplateSpec
	VolumeClaimTemplates      []corev1.PersistentVolumeClaim
	VolumeClaimUpdateStrategy VolumeClaimUpdateStrategy
	ServiceName               string
	PodManagementPolicy       appsv1.PodManagementPolicyType
	UpdateStrategy            StatefulSetUpdateStrategy
	RevisionHistoryLimit      *int32
	// ReserveOrdinals are skipped: each entry is an ordinal or a range "a-b".
	ReserveOrdinals                      []intstr.IntOrString
	Lifecycle                            *pub.Lifecycle
	ScaleStrategy                        *StatefulSetScaleStrategy
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy
	Ordinals                             *StatefulSetOrdinals
}

// VolumeClaimUpdateStrategyType says when changed volume claim templates reach PVCs.
type VolumeClaimUpdateStrategyType string

const (
	OnPodRollingUpdateVolumeClaimUpdateStrategyType VolumeClaimUpdateStrategyType = "OnPodRollingUpdate"
	OnPVCDeleteVolumeClaimUpdateStrategyType        VolumeClaimUpdateStrategyType = "OnDelete"
)

// VolumeClaimUpdateStrategy says when changed volume claim templates reach PVCs.
type VolumeClaimUpdateStrategy struct {
	Type VolumeClaimUpdateStrategyType
}

// StatefulSetUpdateStrategy is RollingUpdate (with parameters) or OnDelete.
type StatefulSetUpdateStrategy struct {
	Type          appsv1.StatefulSetUpdateStrategyType
	RollingUpdate *RollingUpdateStatefulSetStrategy
}

// RollingUpdateStatefulSetStrategy are the parameters of a rolling update.
type RollingUpdateStatefulSetStrategy struct {
	Partition             *int32
	MaxUnavailable        *intstr.IntOrString
	PodUpdatePolicy       PodUpdateStrategyType
	Paused                bool
	UnorderedUpdate       *UnorderedUpdateStrategy
	InPlaceUpdateStrategy *pub.InPlaceUpdateStrategy
	MinReadySeconds       *int32
}

// UnorderedUpdateStrategy updates pods by priority instead of by ordinal.
type UnorderedUpdateStrategy struct {
	PriorityStrategy *pub.UpdatePriorityStrategy
}

// PodUpdateStrategyType is how one pod is updated.
type PodUpdateStrategyType string

const (
	RecreatePodUpdateStrategyType          PodUpdateStrategyType = "ReCreate"
	InPlaceIfPossiblePodUpdateStrategyType PodUpdateStrategyType = "InPlaceIfPossible"
	InPlaceOnlyPodUpdateStrategyType       PodUpdateStrategyType = "InPlaceOnly"
)

// PersistentVolumeClaimRetentionPolicyType is Retain or Delete.
type PersistentVolumeClaimRetentionPolicyType string

const (
	RetainPersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Retain"
	DeletePersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Delete"
)

// StatefulSetPersistentVolumeClaimRetentionPolicy says what happens to claims from
// volumeClaimTemplates when the set is deleted or scaled down.
type StatefulSetPersistentVolumeClaimRetentionPolicy struct {
	WhenDeleted PersistentVolumeClaimRetentionPolicyType
	WhenScaled  PersistentVolumeClaimRetentionPolicyType
}

// StatefulSetOrdinals moves the first ordinal.
type StatefulSetOrdinals struct {
	Start int32
}

// StatefulSetScaleStrategy limits scaling.
type StatefulSetScaleStrategy struct {
	MaxUnavailable *intstr.IntOrString
}

// StatefulSetStatus is the observed state of an Advanced StatefulSet.
type StatefulSetStatus struct {
	ObservedGeneration       int64
	Replicas                 int32
	ReadyReplicas            int32
	AvailableReplicas        int32
	CurrentReplicas          int32
	UpdatedReplicas          int32
	UpdatedReadyReplicas     int32
	UpdatedAvailableReplicas int32
	CurrentRevision          string
	UpdateRevision           string
	CollisionCount           *int32
	Conditions               []appsv1.StatefulSetCondition
	LabelSelector            string
	VolumeClaims             []VolumeClaimStatus
}

// VolumeClaimStatus reports how many replicas match a volume claim template.
type VolumeClaimStatus struct {
	VolumeClaimName         string
	CompatibleReplicas      int32
	CompatibleReadyReplicas int32
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// StatefulSetList is a list of Advanced StatefulSets.
type StatefulSetList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []StatefulSet
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// StatefulSetRollback is the body of POST .../statefulsets/<name>/rollback.
type StatefulSetRollback struct {
	metav1.TypeMeta
	Name       string
	ToRevision int64
}
