package v1alpha1

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// +genclient
// +genclient:method=Rollback,verb=create,subresource=rollback,input=DaemonSetRollback,result=DaemonSet
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DaemonSet is the Advanced DaemonSet: one pod per eligible node, with rollouts
// limited by a node selector, a partition and a pause, and updates in place.
type DaemonSet struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec DaemonSetSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status DaemonSetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// DaemonSetSpec is the desired state of an Advanced DaemonSet.
type DaemonSetSpec struct {
	// Selector is a label query over the pods; it must match the template's labels.
	Selector *metav1.LabelSelector `json:"selector" protobuf:"bytes,1,opt,name=selector"`
	// Template describes the pod run on every eligible node (those the template's
	// node selector, affinity and tolerations admit).
	Template corev1.PodTemplateSpec `json:"template" protobuf:"bytes,2,opt,name=template"`
	// UpdateStrategy says how template changes reach the nodes' pods.
	// +optional
	UpdateStrategy DaemonSetUpdateStrategy `json:"updateStrategy,omitempty" protobuf:"bytes,3,opt,name=updateStrategy"`
	// MinReadySeconds a new pod must be ready, with no container crashing, before it
	// counts as available. Defaults to 0.
	// +optional
	MinReadySeconds int32 `json:"minReadySeconds,omitempty" protobuf:"varint,4,opt,name=minReadySeconds"`
	// BurstReplicas caps how many pods one sync creates (number or percent of the
	// desired pods). Defaults to 250.
	// +optional
	// +default=250
	BurstReplicas *intstr.IntOrString `json:"burstReplicas,omitempty" protobuf:"bytes,5,opt,name=burstReplicas"`
	// RevisionHistoryLimit is how many old ControllerRevisions are kept for rollback.
	// Defaults to 10.
	// +optional
	// +default=10
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,6,opt,name=revisionHistoryLimit"`
	// Lifecycle hooks that hold a pod before it is deleted or updated in place.
	// +optional
	Lifecycle *pub.Lifecycle `json:"lifecycle,omitempty" protobuf:"bytes,7,opt,name=lifecycle"`
}

// DaemonSetUpdateStrategyType is RollingUpdate or OnDelete.
// +enum
type DaemonSetUpdateStrategyType string

const (
	// RollingUpdateDaemonSetStrategyType replaces old pods node by node (the default).
	RollingUpdateDaemonSetStrategyType DaemonSetUpdateStrategyType = "RollingUpdate"
	// OnDeleteDaemonSetStrategyType replaces an old pod only once it has been deleted.
	OnDeleteDaemonSetStrategyType DaemonSetUpdateStrategyType = "OnDelete"
)

// RollingUpdateType is how a rolling update replaces a node's pod.
// +enum
type RollingUpdateType string

const (
	// StandardRollingUpdateType recreates the pod, as kube's DaemonSet does (the default).
	StandardRollingUpdateType RollingUpdateType = "Standard"
	// InplaceRollingUpdateType updates the pod in place when only images (or
	// labels and annotations) changed, and recreates it otherwise.
	InplaceRollingUpdateType RollingUpdateType = "InPlaceIfPossible"
	// DeprecatedSurgingRollingUpdateType is an old name: it is stored as Standard, with
	// maxSurge 1 and maxUnavailable 0 unless they are set.
	DeprecatedSurgingRollingUpdateType RollingUpdateType = "Surging"
)

// DaemonSetUpdateStrategy says how template changes reach the nodes' pods.
type DaemonSetUpdateStrategy struct {
	// Type is RollingUpdate (default) or OnDelete.
	// +optional
	Type DaemonSetUpdateStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=DaemonSetUpdateStrategyType"`
	// RollingUpdate holds the parameters of a RollingUpdate.
	// +optional
	RollingUpdate *RollingUpdateDaemonSet `json:"rollingUpdate,omitempty" protobuf:"bytes,2,opt,name=rollingUpdate"`
}

// RollingUpdateDaemonSet are the parameters of a rolling update.
type RollingUpdateDaemonSet struct {
	// Type is Standard (default) or InPlaceIfPossible; Surging is an old name for
	// Standard with surge.
	// +optional
	Type RollingUpdateType `json:"rollingUpdateType,omitempty" protobuf:"bytes,1,opt,name=rollingUpdateType,casttype=RollingUpdateType"`
	// MaxUnavailable is how many nodes may be without an available pod because of the
	// update (number or percent of the desired pods, rounded up). It may be 0 only if
	// maxSurge is not. Defaults to 1.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,2,opt,name=maxUnavailable"`
	// MaxSurge is how many nodes may run a new pod beside their old one, which is
	// deleted once the new one is available (number or percent, rounded up). It may
	// be 0 only if maxUnavailable is not. Defaults to 0.
	// +optional
	MaxSurge *intstr.IntOrString `json:"maxSurge,omitempty" protobuf:"bytes,3,opt,name=maxSurge"`
	// Selector limits the update to nodes whose labels it matches.
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty" protobuf:"bytes,4,opt,name=selector"`
	// Partition is how many pods keep the old revision. Defaults to 0.
	// +optional
	Partition *int32 `json:"partition,omitempty" protobuf:"varint,5,opt,name=partition"`
	// Paused stops the update; pods are still created and deleted as nodes come and go.
	// +optional
	Paused *bool `json:"paused,omitempty" protobuf:"varint,6,opt,name=paused"`
}

// ProgressiveCreatePodAnnotation set to "true" on a v1alpha1 DaemonSet holds pod
// creation to the partition too; v1beta1 names it scaleStrategy.partitionedScaling.
const ProgressiveCreatePodAnnotation = "daemonset.kruise.io/progressive-create-pod"

// DaemonSetStatus is the observed state of an Advanced DaemonSet.
type DaemonSetStatus struct {
	// CurrentNumberScheduled is the number of eligible nodes running at least one pod.
	CurrentNumberScheduled int32 `json:"currentNumberScheduled" protobuf:"varint,1,opt,name=currentNumberScheduled"`
	// NumberMisscheduled is the number of nodes running a pod they should not run.
	NumberMisscheduled int32 `json:"numberMisscheduled" protobuf:"varint,2,opt,name=numberMisscheduled"`
	// DesiredNumberScheduled is the number of nodes that should run the pod.
	DesiredNumberScheduled int32 `json:"desiredNumberScheduled" protobuf:"varint,3,opt,name=desiredNumberScheduled"`
	// NumberReady is the number of eligible nodes with a ready pod.
	NumberReady int32 `json:"numberReady" protobuf:"varint,4,opt,name=numberReady"`
	// ObservedGeneration is the generation the controller last acted on.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,5,opt,name=observedGeneration"`
	// UpdatedNumberScheduled is the number of nodes running a pod of the update revision.
	UpdatedNumberScheduled int32 `json:"updatedNumberScheduled" protobuf:"varint,6,opt,name=updatedNumberScheduled"`
	// NumberAvailable is the number of eligible nodes with an available pod.
	// +optional
	NumberAvailable int32 `json:"numberAvailable,omitempty" protobuf:"varint,7,opt,name=numberAvailable"`
	// NumberUnavailable is the number of eligible nodes without an available pod.
	// +optional
	NumberUnavailable int32 `json:"numberUnavailable,omitempty" protobuf:"varint,8,opt,name=numberUnavailable"`
	// CollisionCount counts revision name collisions; the controller salts the next
	// revision's hash with it.
	// +optional
	CollisionCount *int32 `json:"collisionCount,omitempty" protobuf:"varint,9,opt,name=collisionCount"`
	// Conditions are the latest observations of the DaemonSet's state.
	// +optional
	// +patchMergeKey=type
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=type
	Conditions []appsv1.DaemonSetCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,10,rep,name=conditions"`
	// DaemonSetHash is the hash of the newest revision (v1beta1: updateRevision).
	DaemonSetHash string `json:"daemonSetHash" protobuf:"bytes,11,opt,name=daemonSetHash"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DaemonSetList is a list of Advanced DaemonSets.
type DaemonSetList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []DaemonSet `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DaemonSetRollback is the body of POST .../daemonsets/<name>/rollback: it restores
// the pod template of an earlier revision.
type DaemonSetRollback struct {
	metav1.TypeMeta `json:",inline"`
	// Name of the DaemonSet; must match the URL when set.
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	// ToRevision is the revision number to restore; 0 means the previous revision.
	// +optional
	ToRevision int64 `json:"toRevision,omitempty" protobuf:"varint,2,opt,name=toRevision"`
}
