package apps

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DaemonSet is the Advanced DaemonSet: one pod per eligible node, with rollouts
// limited by a node selector, a partition and a pause, and updates in place.
type DaemonSet struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   DaemonSetSpec
	Status DaemonSetStatus
}

// DaemonSetSpec is the desired state of an Advanced DaemonSet. The hub has
// v1beta1's shape; v1alpha1 keeps ScaleStrategy as an annotation.
type DaemonSetSpec struct {
	Selector             *metav1.LabelSelector
	Template             corev1.PodTemplateSpec
	UpdateStrategy       DaemonSetUpdateStrategy
	MinReadySeconds      int32
	BurstReplicas        *intstr.IntOrString
	RevisionHistoryLimit *int32
	Lifecycle            *pub.Lifecycle
	ScaleStrategy        *DaemonSetScaleStrategy
}

// DaemonSetUpdateStrategyType is RollingUpdate or OnDelete.
type DaemonSetUpdateStrategyType string

const (
	RollingUpdateDaemonSetStrategyType DaemonSetUpdateStrategyType = "RollingUpdate"
	OnDeleteDaemonSetStrategyType      DaemonSetUpdateStrategyType = "OnDelete"
)

// RollingUpdateType is how a rolling update replaces a node's pod.
type RollingUpdateType string

const (
	StandardRollingUpdateType RollingUpdateType = "Standard"
	InplaceRollingUpdateType  RollingUpdateType = "InPlaceIfPossible"
	// DeprecatedSurgingRollingUpdateType is accepted on input and defaulted to
	// Standard with maxSurge 1 and maxUnavailable 0, as OpenKruise does.
	DeprecatedSurgingRollingUpdateType RollingUpdateType = "Surging"
)

// DaemonSetUpdateStrategy is how template changes reach the nodes' pods.
type DaemonSetUpdateStrategy struct {
	Type          DaemonSetUpdateStrategyType
	RollingUpdate *RollingUpdateDaemonSet
}

// RollingUpdateDaemonSet are the parameters of a rolling update.
type RollingUpdateDaemonSet struct {
	Type           RollingUpdateType
	MaxUnavailable *intstr.IntOrString
	MaxSurge       *intstr.IntOrString
	// Selector limits the update to nodes whose labels it matches.
	Selector  *metav1.LabelSelector
	Partition *int32
	Paused    *bool
}

// DaemonSetScaleStrategy says how pods are created on nodes that need one.
type DaemonSetScaleStrategy struct {
	// PartitionedScaling holds creations to the partition too.
	PartitionedScaling bool
}

// DaemonSetStatus is the observed state of an Advanced DaemonSet.
type DaemonSetStatus struct {
	CurrentNumberScheduled int32
	NumberMisscheduled     int32
	DesiredNumberScheduled int32
	NumberReady            int32
	ObservedGeneration     int64
	UpdatedNumberScheduled int32
	NumberAvailable        int32
	NumberUnavailable      int32
	CollisionCount         *int32
	Conditions             []appsv1.DaemonSetCondition
	// UpdateRevision is the hash of the newest revision (v1alpha1: daemonSetHash).
	UpdateRevision string
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DaemonSetList is a list of Advanced DaemonSets.
type DaemonSetList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []DaemonSet
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DaemonSetRollback is the body of POST .../daemonsets/<name>/rollback.
type DaemonSetRollback struct {
	metav1.TypeMeta
	Name       string
	ToRevision int64
}
