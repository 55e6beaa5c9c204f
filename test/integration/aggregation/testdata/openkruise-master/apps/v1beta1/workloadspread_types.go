// Source: github.com/openkruise/kruise apis/apps/v1beta1/workloadspread_types.go at
// ac57efda17ca75f1df706d2ccff80de4caefaba4 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type WorkloadSpreadSpec struct {
	TargetReference  *TargetReference               `json:"targetRef"`
	Subsets          []WorkloadSpreadSubset         `json:"subsets"`
	ScheduleStrategy WorkloadSpreadScheduleStrategy `json:"scheduleStrategy,omitempty"`
}

type TargetReference struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
}

type WorkloadSpreadScheduleStrategyType string

type WorkloadSpreadScheduleStrategy struct {
	Type     WorkloadSpreadScheduleStrategyType `json:"type,omitempty"`
	Adaptive *AdaptiveWorkloadSpreadStrategy    `json:"adaptive,omitempty"`
}

type AdaptiveWorkloadSpreadStrategy struct {
	DisableSimulationSchedule bool   `json:"disableSimulationSchedule,omitempty"`
	RescheduleCriticalSeconds *int32 `json:"rescheduleCriticalSeconds,omitempty"`
}

type WorkloadSpreadSubset struct {
	Name                       string                           `json:"name"`
	RequiredNodeSelectorTerm   *corev1.NodeSelectorTerm         `json:"requiredNodeSelectorTerm,omitempty"`
	PreferredNodeSelectorTerms []corev1.PreferredSchedulingTerm `json:"preferredNodeSelectorTerms,omitempty"`
	Tolerations                []corev1.Toleration              `json:"tolerations,omitempty"`
	MaxReplicas                *intstr.IntOrString              `json:"maxReplicas,omitempty"`
	Patch                      runtime.RawExtension             `json:"patch,omitempty"`
}

type WorkloadSpreadStatus struct {
	ObservedGeneration int64                        `json:"observedGeneration,omitempty"`
	SubsetStatuses     []WorkloadSpreadSubsetStatus `json:"subsetStatuses,omitempty"`
}

type WorkloadSpreadSubsetConditionType string

type WorkloadSpreadSubsetCondition struct {
	Type               WorkloadSpreadSubsetConditionType `json:"type"`
	Status             corev1.ConditionStatus            `json:"status"`
	LastTransitionTime metav1.Time                       `json:"lastTransitionTime,omitempty"`
	Reason             string                            `json:"reason,omitempty"`
	Message            string                            `json:"message,omitempty"`
}

type WorkloadSpreadSubsetStatus struct {
	Name            string                          `json:"name"`
	Replicas        int32                           `json:"replicas"`
	Conditions      []WorkloadSpreadSubsetCondition `json:"conditions,omitempty"`
	MissingReplicas int32                           `json:"missingReplicas"`
	CreatingPods    map[string]metav1.Time          `json:"creatingPods,omitempty"`
	DeletingPods    map[string]metav1.Time          `json:"deletingPods,omitempty"`
}

type WorkloadSpread struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WorkloadSpreadSpec   `json:"spec,omitempty"`
	Status WorkloadSpreadStatus `json:"status,omitempty"`
}
