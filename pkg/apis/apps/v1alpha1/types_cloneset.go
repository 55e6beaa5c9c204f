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
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec CloneSetSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status CloneSetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// CloneSetSpec is the desired state of a CloneSet.
type CloneSetSpec struct {
	// Replicas is the desired number of pods. Defaults to 1.
	// +optional
	// +default=1
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
	// Selector is a label query over pods; it must match the template's labels.
	Selector *metav1.LabelSelector `json:"selector" protobuf:"bytes,2,opt,name=selector"`
	// Template describes the pods that are created.
	Template corev1.PodTemplateSpec `json:"template" protobuf:"bytes,3,opt,name=template"`
	// VolumeClaimTemplates are claims each pod gets its own copy of; a claim lives as
	// long as its pod's instance id.
	// +optional
	// +listType=atomic
	VolumeClaimTemplates []corev1.PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty" protobuf:"bytes,4,rep,name=volumeClaimTemplates"`
	// ScaleStrategy controls how pods are added and removed.
	// +optional
	ScaleStrategy CloneSetScaleStrategy `json:"scaleStrategy,omitempty" protobuf:"bytes,5,opt,name=scaleStrategy"`
	// UpdateStrategy controls rollouts of template changes.
	// +optional
	UpdateStrategy CloneSetUpdateStrategy `json:"updateStrategy,omitempty" protobuf:"bytes,6,opt,name=updateStrategy"`
	// RevisionHistoryLimit is how many old ControllerRevisions are kept. Defaults to 10.
	// +optional
	// +default=10
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,7,opt,name=revisionHistoryLimit"`
	// MinReadySeconds a new pod must be ready, without a container crashing, to count as available.
	// +optional
	MinReadySeconds int32 `json:"minReadySeconds,omitempty" protobuf:"varint,8,opt,name=minReadySeconds"`
	// Lifecycle hooks for pre-normal, pre-delete and in-place update.
	// +optional
	Lifecycle *pub.Lifecycle `json:"lifecycle,omitempty" protobuf:"bytes,9,opt,name=lifecycle"`
	// ProgressDeadlineSeconds is how long a rollout may make no progress before it is
	// reported as failed.
	// +optional
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty" protobuf:"varint,10,opt,name=progressDeadlineSeconds"`
}

// CloneSetScaleStrategy controls how pods are added and removed.
type CloneSetScaleStrategy struct {
	// PodsToDelete names pods to delete first; names are removed once the pods are gone.
	// +optional
	// +listType=atomic
	PodsToDelete []string `json:"podsToDelete,omitempty" protobuf:"bytes,1,rep,name=podsToDelete"`
	// MaxUnavailable limits scale-up: no new pod while this many are unavailable.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,2,opt,name=maxUnavailable"`
	// DisablePVCReuse: a replacement pod gets new PVCs instead of adopting the claims of
	// the pod it replaces.
	// +optional
	DisablePVCReuse bool `json:"disablePVCReuse,omitempty" protobuf:"varint,3,opt,name=disablePVCReuse"`
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
	Type CloneSetUpdateStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=CloneSetUpdateStrategyType"`
	// Partition is how many pods (or what percent, rounded up) keep the old revision. Defaults to 0.
	// +optional
	Partition *intstr.IntOrString `json:"partition,omitempty" protobuf:"bytes,2,opt,name=partition"`
	// MaxUnavailable is how many pods may be down for the update at once. Defaults to 20%.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,3,opt,name=maxUnavailable"`
	// MaxSurge is how many extra pods may be created during the update. Defaults to 0.
	// +optional
	MaxSurge *intstr.IntOrString `json:"maxSurge,omitempty" protobuf:"bytes,4,opt,name=maxSurge"`
	// Paused stops the rollout; replicas are still managed.
	// +optional
	Paused bool `json:"paused,omitempty" protobuf:"varint,5,opt,name=paused"`
	// PriorityStrategy orders the pods of the rollout.
	// +optional
	PriorityStrategy *pub.UpdatePriorityStrategy `json:"priorityStrategy,omitempty" protobuf:"bytes,6,opt,name=priorityStrategy"`
	// ScatterStrategy spreads pods with these labels across the rollout.
	// +optional
	// +listType=atomic
	ScatterStrategy []pub.UpdateScatterTerm `json:"scatterStrategy,omitempty" protobuf:"bytes,7,rep,name=scatterStrategy"`
	// InPlaceUpdateStrategy tunes in-place updates.
	// +optional
	InPlaceUpdateStrategy *pub.InPlaceUpdateStrategy `json:"inPlaceUpdateStrategy,omitempty" protobuf:"bytes,8,opt,name=inPlaceUpdateStrategy"`
}

// CloneSetStatus is the observed state of a CloneSet.
type CloneSetStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	// Replicas is the number of pods the CloneSet owns.
	Replicas int32 `json:"replicas" protobuf:"varint,2,opt,name=replicas"`
	// ReadyReplicas is the number of owned pods that are Ready.
	ReadyReplicas int32 `json:"readyReplicas" protobuf:"varint,3,opt,name=readyReplicas"`
	// AvailableReplicas is the number of owned pods Ready for minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas" protobuf:"varint,4,opt,name=availableReplicas"`
	// UpdatedReplicas is the number of owned pods at updateRevision.
	UpdatedReplicas int32 `json:"updatedReplicas" protobuf:"varint,5,opt,name=updatedReplicas"`
	// UpdatedReadyReplicas is the number of owned pods at updateRevision that are Ready.
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas" protobuf:"varint,6,opt,name=updatedReadyReplicas"`
	// UpdatedAvailableReplicas is the number of owned pods at updateRevision that are available.
	// +optional
	UpdatedAvailableReplicas int32 `json:"updatedAvailableReplicas,omitempty" protobuf:"varint,7,opt,name=updatedAvailableReplicas"`
	// ExpectedUpdatedReplicas is replicas minus partition.
	// +optional
	ExpectedUpdatedReplicas int32 `json:"expectedUpdatedReplicas,omitempty" protobuf:"varint,8,opt,name=expectedUpdatedReplicas"`
	// +optional
	UpdateRevision string `json:"updateRevision,omitempty" protobuf:"bytes,9,opt,name=updateRevision"`
	// +optional
	CurrentRevision string `json:"currentRevision,omitempty" protobuf:"bytes,10,opt,name=currentRevision"`
	// +optional
	CollisionCount *int32 `json:"collisionCount,omitempty" protobuf:"varint,11,opt,name=collisionCount"`
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []CloneSetCondition `json:"conditions,omitempty" protobuf:"bytes,12,rep,name=conditions"`
	// LabelSelector is the selector in string form, for the scale subresource and HPA.
	// +optional
	LabelSelector string `json:"labelSelector,omitempty" protobuf:"bytes,13,opt,name=labelSelector"`
}

// CloneSetConditionType names a CloneSet condition.
type CloneSetConditionType string

const (
	CloneSetConditionFailedScale  CloneSetConditionType = "FailedScale"
	CloneSetConditionFailedUpdate CloneSetConditionType = "FailedUpdate"
	// CloneSetConditionTypeProgressing is kept on every CloneSet, as kube keeps
	// Progressing on every Deployment: False with reason ProgressDeadlineExceeded when
	// a rollout made no progress for spec.progressDeadlineSeconds.
	CloneSetConditionTypeProgressing CloneSetConditionType = "Progressing"
)

// Reasons of the Progressing condition, OpenKruise's: its CloneSet counterparts of
// kube's Deployment reasons (ReplicaSetUpdated, NewReplicaSetAvailable,
// DeploymentPaused), and kube's own ProgressDeadlineExceeded.
const (
	// CloneSetProgressUpdated: a rollout is under way and made progress within the deadline.
	CloneSetProgressUpdated = "CloneSetUpdated"
	// CloneSetAvailable: every pod is updated and available.
	CloneSetAvailable = "CloneSetAvailable"
	// CloneSetProgressPaused: rollingUpdate.paused; a paused rollout does not time out.
	CloneSetProgressPaused = "CloneSetProgressPaused"
	// CloneSetProgressPartitionAvailable: every pod the partition lets update is updated
	// and available.
	CloneSetProgressPartitionAvailable = "CloneSetProgressPartitionAvailable"
	// CloneSetProgressDeadlineExceeded (status False): no progress for progressDeadlineSeconds.
	CloneSetProgressDeadlineExceeded = "ProgressDeadlineExceeded"
)

// CloneSetCondition is one observation of a CloneSet's state.
type CloneSetCondition struct {
	Type   CloneSetConditionType  `json:"type" protobuf:"bytes,1,opt,name=type,casttype=CloneSetConditionType"`
	Status corev1.ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status,casttype=k8s.io/api/core/v1.ConditionStatus"`
	// +optional
	LastUpdateTime metav1.Time `json:"lastUpdateTime,omitempty" protobuf:"bytes,3,opt,name=lastUpdateTime"`
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	// +optional
	Reason string `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CloneSetList is a list of CloneSets.
type CloneSetList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []CloneSet `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CloneSetRollback is the body of POST .../clonesets/<name>/rollback: it restores the
// pod template of an earlier revision.
type CloneSetRollback struct {
	metav1.TypeMeta `json:",inline"`
	// Name of the CloneSet; must match the URL when set.
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	// ToRevision is the revision number to restore; 0 means the previous revision.
	// +optional
	ToRevision int64 `json:"toRevision,omitempty" protobuf:"varint,2,opt,name=toRevision"`
}

// ScalingExcludePreparingDeleteKey is the v1alpha1 label form of v1beta1's
// scaleStrategy.excludePreparingDelete.
const ScalingExcludePreparingDeleteKey = "apps.kruise.io/cloneset-scaling-exclude-preparing-delete"
