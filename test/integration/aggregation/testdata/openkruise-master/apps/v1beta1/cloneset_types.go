// Source: github.com/openkruise/kruise apis/apps/v1beta1/cloneset_types.go at
// 044a5eb319cfc1f3d038ad58d0a08de508dd6a1c (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	appspub "github.com/openkruise/kruise/apis/apps/pub"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type CloneSetSpec struct {
	Replicas             *int32                     `json:"replicas,omitempty"`
	Selector             *metav1.LabelSelector      `json:"selector"`
	Template             v1.PodTemplateSpec         `json:"template"`
	VolumeClaimTemplates []v1.PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty"`
	ScaleStrategy        CloneSetScaleStrategy      `json:"scaleStrategy,omitempty"`
	UpdateStrategy       CloneSetUpdateStrategy     `json:"updateStrategy,omitempty"`
	RevisionHistoryLimit *int32                     `json:"revisionHistoryLimit,omitempty"`
	MinReadySeconds      int32                      `json:"minReadySeconds,omitempty"`
	Lifecycle            *appspub.Lifecycle         `json:"lifecycle,omitempty"`
}

type CloneSetScaleStrategy struct {
	PodsToDelete           []string            `json:"podsToDelete,omitempty"`
	MaxUnavailable         *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	DisablePVCReuse        bool                `json:"disablePVCReuse"`
	ExcludePreparingDelete bool                `json:"excludePreparingDelete,omitempty"`
}

type CloneSetUpdateStrategy struct {
	Type                  CloneSetUpdateStrategyType      `json:"type,omitempty"`
	Partition             *intstr.IntOrString             `json:"partition,omitempty"`
	MaxUnavailable        *intstr.IntOrString             `json:"maxUnavailable,omitempty"`
	MaxSurge              *intstr.IntOrString             `json:"maxSurge,omitempty"`
	Paused                bool                            `json:"paused,omitempty"`
	PriorityStrategy      *appspub.UpdatePriorityStrategy `json:"priorityStrategy,omitempty"`
	ScatterStrategy       UpdateScatterStrategy           `json:"scatterStrategy,omitempty"`
	InPlaceUpdateStrategy *appspub.InPlaceUpdateStrategy  `json:"inPlaceUpdateStrategy,omitempty"`
}

type CloneSetUpdateStrategyType string

type CloneSetStatus struct {
	ObservedGeneration       int64               `json:"observedGeneration,omitempty"`
	Replicas                 int32               `json:"replicas"`
	ReadyReplicas            int32               `json:"readyReplicas"`
	AvailableReplicas        int32               `json:"availableReplicas"`
	UpdatedReplicas          int32               `json:"updatedReplicas"`
	UpdatedReadyReplicas     int32               `json:"updatedReadyReplicas"`
	UpdatedAvailableReplicas int32               `json:"updatedAvailableReplicas,omitempty"`
	ExpectedUpdatedReplicas  int32               `json:"expectedUpdatedReplicas,omitempty"`
	UpdateRevision           string              `json:"updateRevision,omitempty"`
	CurrentRevision          string              `json:"currentRevision,omitempty"`
	CollisionCount           *int32              `json:"collisionCount,omitempty"`
	Conditions               []CloneSetCondition `json:"conditions,omitempty"`
	LabelSelector            string              `json:"labelSelector,omitempty"`
}

type CloneSetConditionType string

type CloneSetCondition struct {
	Type               CloneSetConditionType `json:"type"`
	Status             v1.ConditionStatus    `json:"status"`
	LastTransitionTime metav1.Time           `json:"lastTransitionTime,omitempty"`
	Reason             string                `json:"reason,omitempty"`
	Message            string                `json:"message,omitempty"`
}

type CloneSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CloneSetSpec   `json:"spec,omitempty"`
	Status CloneSetStatus `json:"status,omitempty"`
}
