// Source: github.com/openkruise/kruise apis/apps/v1beta1/uniteddeployment_types.go at
// ac57efda17ca75f1df706d2ccff80de4caefaba4 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type UpdateStrategyType string

type UnitedDeploymentConditionType string

type UnitedDeploymentSpec struct {
	Replicas             *int32                         `json:"replicas,omitempty"`
	Selector             *metav1.LabelSelector          `json:"selector"`
	Template             SubsetTemplate                 `json:"template,omitempty"`
	Topology             Topology                       `json:"topology,omitempty"`
	UpdateStrategy       UnitedDeploymentUpdateStrategy `json:"updateStrategy,omitempty"`
	RevisionHistoryLimit *int32                         `json:"revisionHistoryLimit,omitempty"`
}

type SubsetTemplate struct {
	StatefulSetTemplate         *StatefulSetTemplateSpec         `json:"statefulSetTemplate,omitempty"`
	AdvancedStatefulSetTemplate *AdvancedStatefulSetTemplateSpec `json:"advancedStatefulSetTemplate,omitempty"`
	CloneSetTemplate            *CloneSetTemplateSpec            `json:"cloneSetTemplate,omitempty"`
	DeploymentTemplate          *DeploymentTemplateSpec          `json:"deploymentTemplate,omitempty"`
}

type StatefulSetTemplateSpec struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              appsv1.StatefulSetSpec `json:"spec"`
}

type AdvancedStatefulSetTemplateSpec struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              StatefulSetSpec `json:"spec"`
}

type CloneSetTemplateSpec struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              CloneSetSpec `json:"spec"`
}

type DeploymentTemplateSpec struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              appsv1.DeploymentSpec `json:"spec"`
}

type UnitedDeploymentUpdateStrategy struct {
	Type         UpdateStrategyType `json:"type,omitempty"`
	ManualUpdate *ManualUpdate      `json:"manualUpdate,omitempty"`
}

type ManualUpdate struct {
	Partitions map[string]int32 `json:"partitions,omitempty"`
}

type Topology struct {
	Subsets []Subset `json:"subsets,omitempty"`
}

type Subset struct {
	Name             string                  `json:"name"`
	NodeSelectorTerm corev1.NodeSelectorTerm `json:"nodeSelectorTerm,omitempty"`
	Tolerations      []corev1.Toleration     `json:"tolerations,omitempty"`
	Replicas         *intstr.IntOrString     `json:"replicas,omitempty"`
	Patch            runtime.RawExtension    `json:"patch,omitempty"`
}

type UnitedDeploymentStatus struct {
	ObservedGeneration   int64                       `json:"observedGeneration,omitempty"`
	ReadyReplicas        int32                       `json:"readyReplicas,omitempty"`
	Replicas             int32                       `json:"replicas"`
	UpdatedReplicas      int32                       `json:"updatedReplicas"`
	UpdatedReadyReplicas int32                       `json:"updatedReadyReplicas,omitempty"`
	CollisionCount       *int32                      `json:"collisionCount,omitempty"`
	CurrentRevision      string                      `json:"currentRevision"`
	SubsetReplicas       map[string]int32            `json:"subsetReplicas,omitempty"`
	Conditions           []UnitedDeploymentCondition `json:"conditions,omitempty"`
	UpdateStatus         *UpdateStatus               `json:"updateStatus,omitempty"`
	LabelSelector        string                      `json:"labelSelector,omitempty"`
}

type UnitedDeploymentCondition struct {
	Type               UnitedDeploymentConditionType `json:"type,omitempty"`
	Status             corev1.ConditionStatus        `json:"status,omitempty"`
	LastTransitionTime metav1.Time                   `json:"lastTransitionTime,omitempty"`
	Reason             string                        `json:"reason,omitempty"`
	Message            string                        `json:"message,omitempty"`
}

type UpdateStatus struct {
	UpdatedRevision   string           `json:"updatedRevision,omitempty"`
	CurrentPartitions map[string]int32 `json:"currentPartitions,omitempty"`
}

type UnitedDeployment struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   UnitedDeploymentSpec   `json:"spec,omitempty"`
	Status UnitedDeploymentStatus `json:"status,omitempty"`
}
