package apps

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CloneSet manages a set of interchangeable pods directly (no ReplicaSet), with
// in-place updates, partitions and selective scale-down.
type CloneSet struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   CloneSetSpec
	Status CloneSetStatus
}

// CloneSetSpec is the desired state of a CloneSet.
type CloneSetSpec struct {
	Replicas             *int32
	Selector             *metav1.LabelSelector
	Template             corev1.PodTemplateSpec
	VolumeClaimTemplates []corev1.PersistentVolumeClaim
	ScaleStrategy        CloneSetScaleStrategy
	UpdateStrategy       CloneSetUpdateStrategy
	RevisionHistoryLimit *int32
	MinReadySeconds      int32
	Lifecycle            *pub.Lifecycle
	// ProgressDeadlineSeconds is how long a rollout may make no progress before the
	// CloneSet reports it as failed.
	ProgressDeadlineSeconds *int32
}

// CloneSetScaleStrategy controls how pods are added and removed.
type CloneSetScaleStrategy struct {
	PodsToDelete   []string
	MaxUnavailable *intstr.IntOrString
	// DisablePVCReuse: new pods get new PVCs instead of adopting the claims of the pod they replace.
	DisablePVCReuse bool
	// ExcludePreparingDelete: pods in PreparingDelete do not count towards replicas.
	// v1alpha1 carries it as the apps.kruise.io/cloneset-scaling-exclude-preparing-delete label.
	ExcludePreparingDelete bool
}

// CloneSetUpdateStrategyType is how pods of an old revision are brought to the new one.
// The hub keeps v1alpha1's flat form; v1beta1's RollingUpdate+podUpdatePolicy maps onto it.
type CloneSetUpdateStrategyType string

const (
	RecreateCloneSetUpdateStrategyType          CloneSetUpdateStrategyType = "ReCreate"
	InPlaceIfPossibleCloneSetUpdateStrategyType CloneSetUpdateStrategyType = "InPlaceIfPossible"
	InPlaceOnlyCloneSetUpdateStrategyType       CloneSetUpdateStrategyType = "InPlaceOnly"
	OnDeleteCloneSetUpdateStrategyType          CloneSetUpdateStrategyType = "OnDelete"
)

// CloneSetUpdateStrategy controls rollouts.
type CloneSetUpdateStrategy struct {
	Type                  CloneSetUpdateStrategyType
	Partition             *intstr.IntOrString
	MaxUnavailable        *intstr.IntOrString
	MaxSurge              *intstr.IntOrString
	Paused                bool
	PriorityStrategy      *pub.UpdatePriorityStrategy
	ScatterStrategy       []pub.UpdateScatterTerm
	InPlaceUpdateStrategy *pub.InPlaceUpdateStrategy
}

// CloneSetStatus is the observed state of a CloneSet.
type CloneSetStatus struct {
	ObservedGeneration       int64
	Replicas                 int32
	ReadyReplicas            int32
	AvailableReplicas        int32
	UpdatedReplicas          int32
	UpdatedReadyReplicas     int32
	UpdatedAvailableReplicas int32
	ExpectedUpdatedReplicas  int32
	UpdateRevision           string
	CurrentRevision          string
	CollisionCount           *int32
	Conditions               []CloneSetCondition
	LabelSelector            string
}

// CloneSetConditionType names a CloneSet condition.
type CloneSetConditionType string

const (
	CloneSetConditionFailedScale  CloneSetConditionType = "FailedScale"
	CloneSetConditionFailedUpdate CloneSetConditionType = "FailedUpdate"
)

// CloneSetCondition is one observation of a CloneSet's state.
type CloneSetCondition struct {
	Type               CloneSetConditionType
	Status             corev1.ConditionStatus
	LastUpdateTime     metav1.Time
	LastTransitionTime metav1.Time
	Reason             string
	Message            string
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CloneSetList is a list of CloneSets.
type CloneSetList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []CloneSet
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CloneSetRollback is the body of POST .../clonesets/<name>/rollback.
type CloneSetRollback struct {
	metav1.TypeMeta
	// Name of the CloneSet; must match the URL when set.
	Name string
	// ToRevision is the ControllerRevision number to restore; 0 means the previous one.
	ToRevision int64
}
