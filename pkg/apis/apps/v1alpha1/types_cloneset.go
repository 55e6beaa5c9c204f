package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// +genclient
// +genclient:method=GetScale,verb=get,subresource=scale,result=k8s.io/api/autoscaling/v1.Scale
// +genclient:method=UpdateScale,verb=update,subresource=scale,input=k8s.io/api/autoscaling/v1.Scale,result=k8s.io/api/autoscaling/v1.Scale
// +genclient:method=Rollback,verb=create,subresource=rollback,input=CloneSetRollback,result=CloneSet
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CloneSet manages a set of interchangeable pods directly (no ReplicaSet), with
// in-place updates, partitions and selective scale-down.
type CloneSet struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec CloneSetSpec `json:"spec,omitempty"`
	// +optional
	Status CloneSetStatus `json:"status,omitempty"`
}

// CloneSetSpec is the desired state of a CloneSet.
type CloneSetSpec struct {
	// Replicas is the desired number of pods. Defaults to 1.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// Selector is a label query over pods; it must match the template's labels.
	Selector *metav1.LabelSelector `json:"selector"`
	// Template describes the pods that are created.
	Template corev1.PodTemplateSpec `json:"template"`
	// VolumeClaimTemplates are claims each pod gets its own copy of; a claim lives as
	// long as its pod's instance id.
	// +optional
	// +listType=atomic
	VolumeClaimTemplates []corev1.PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty"`
	// ScaleStrategy controls how pods are added and removed.
	// +optional
	ScaleStrategy CloneSetScaleStrategy `json:"scaleStrategy,omitempty"`
	// UpdateStrategy controls rollouts of template changes.
	// +optional
	UpdateStrategy CloneSetUpdateStrategy `json:"updateStrategy,omitempty"`
	// RevisionHistoryLimit is how many old ControllerRevisions are kept. Defaults to 10.
	// +optional
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// MinReadySeconds a new pod must be ready, without a container crashing, to count as available.
	// +optional
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// Lifecycle hooks for pre-normal, pre-delete and in-place update.
	// +optional
	Lifecycle *pub.Lifecycle `json:"lifecycle,omitempty"`
	// ProgressDeadlineSeconds is how long a rollout may make no progress before it is
	// reported as failed.
	// +optional
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
}

// CloneSetScaleStrategy controls how pods are added and removed.
type CloneSetScaleStrategy struct {
	// PodsToDelete names pods to delete first; names are removed once the pods are gone.
	// +optional
	// +listType=atomic
	PodsToDelete []string `json:"podsToDelete,omitempty"`
	// MaxUnavailable limits scale-up: no new pod while this many are unavailable.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	// DisablePVCReuse: a replacement pod gets new PVCs instead of adopting the claims of
	// the pod it replaces.
	// +optional
	DisablePVCReuse bool `json:"disablePVCReuse,omitempty"`
}

// CloneSetUpdateStrategyType is how pods of an old revision are brought to the new one.
// +enum
type CloneSetUpdateStrategyType string

const (
	// RecreateCloneSetUpdateStrategyType deletes old pods and creates new ones (default).
	RecreateCloneSetUpdateStrategyType CloneSetUpdateStrategyType = "ReCreate"
	// InPlaceIfPossibleCloneSetUpdateStrategyType updates pods in place when only images
	// (or env from metadata) changed, and recreates them otherwise.
	InPlaceIfPossibleCloneSetUpdateStrategyType CloneSetUpdateStrategyType = "InPlaceIfPossible"
	// InPlaceOnlyCloneSetUpdateStrategyType only updates in place; other template changes are rejected.
	InPlaceOnlyCloneSetUpdateStrategyType CloneSetUpdateStrategyType = "InPlaceOnly"
	// OnDeleteCloneSetUpdateStrategyType updates a pod only when it is deleted.
	OnDeleteCloneSetUpdateStrategyType CloneSetUpdateStrategyType = "OnDelete"
)

// CloneSetUpdateStrategy controls rollouts of template changes.
type CloneSetUpdateStrategy struct {
	// Type is ReCreate (default), InPlaceIfPossible, InPlaceOnly or OnDelete.
	// +optional
	Type CloneSetUpdateStrategyType `json:"type,omitempty"`
	// Partition is how many pods (or what percent, rounded up) keep the old revision. Defaults to 0.
	// +optional
	Partition *intstr.IntOrString `json:"partition,omitempty"`
	// MaxUnavailable is how many pods may be down for the update at once. Defaults to 20%.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	// MaxSurge is how many extra pods may be created during the update. Defaults to 0.
	// +optional
	MaxSurge *intstr.IntOrString `json:"maxSurge,omitempty"`
	// Paused stops the rollout; replicas are still managed.
	// +optional
	Paused bool `json:"paused,omitempty"`
	// PriorityStrategy orders the pods of the rollout.
	// +optional
	PriorityStrategy *pub.UpdatePriorityStrategy `json:"priorityStrategy,omitempty"`
	// ScatterStrategy spreads pods with these labels across the rollout.
	// +optional
	// +listType=atomic
	ScatterStrategy []pub.UpdateScatterTerm `json:"scatterStrategy,omitempty"`
	// InPlaceUpdateStrategy tunes in-place updates.
	// +optional
	InPlaceUpdateStrategy *pub.InPlaceUpdateStrategy `json:"inPlaceUpdateStrategy,omitempty"`
}

// CloneSetStatus is the observed state of a CloneSet.
type CloneSetStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Replicas is the number of pods the CloneSet owns.
	Replicas int32 `json:"replicas"`
	// ReadyReplicas is the number of owned pods that are Ready.
	ReadyReplicas int32 `json:"readyReplicas"`
	// AvailableReplicas is the number of owned pods Ready for minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas"`
	// UpdatedReplicas is the number of owned pods at updateRevision.
	UpdatedReplicas int32 `json:"updatedReplicas"`
	// UpdatedReadyReplicas is the number of owned pods at updateRevision that are Ready.
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas"`
	// UpdatedAvailableReplicas is the number of owned pods at updateRevision that are available.
	// +optional
	UpdatedAvailableReplicas int32 `json:"updatedAvailableReplicas,omitempty"`
	// ExpectedUpdatedReplicas is replicas minus partition.
	// +optional
	ExpectedUpdatedReplicas int32 `json:"expectedUpdatedReplicas,omitempty"`
	// +optional
	UpdateRevision string `json:"updateRevision,omitempty"`
	// +optional
	CurrentRevision string `json:"currentRevision,omitempty"`
	// +optional
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []CloneSetCondition `json:"conditions,omitempty"`
	// LabelSelector is the selector in string form, for the scale subresource and HPA.
	// +optional
	LabelSelector string `json:"labelSelector,omitempty"`
}

// CloneSetConditionType names a CloneSet condition.
type CloneSetConditionType string

const (
	CloneSetConditionFailedScale  CloneSetConditionType = "FailedScale"
	CloneSetConditionFailedUpdate CloneSetConditionType = "FailedUpdate"
)

// CloneSetCondition is one observation of a CloneSet's state.
type CloneSetCondition struct {
	Type   CloneSetConditionType  `json:"type"`
	Status corev1.ConditionStatus `json:"status"`
	// +optional
	LastUpdateTime metav1.Time `json:"lastUpdateTime,omitempty"`
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty"`
	// +optional
	Reason string `json:"reason,omitempty"`
	// +optional
	Message string `json:"message,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CloneSetList is a list of CloneSets.
type CloneSetList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CloneSet `json:"items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CloneSetRollback is the body of POST .../clonesets/<name>/rollback: it restores the
// pod template of an earlier revision.
type CloneSetRollback struct {
	metav1.TypeMeta `json:",inline"`
	// Name of the CloneSet; must match the URL when set.
	// +optional
	Name string `json:"name,omitempty"`
	// ToRevision is the revision number to restore; 0 means the previous revision.
	// +optional
	ToRevision int64 `json:"toRevision,omitempty"`
}

// ScalingExcludePreparingDeleteKey is the v1alpha1 label form of v1beta1's
// scaleStrategy.excludePreparingDelete.
const ScalingExcludePreparingDeleteKey = "apps.kruise.io/cloneset-scaling-exclude-preparing-delete"
