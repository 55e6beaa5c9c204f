// Source: github.com/openkruise/kruise apis/apps/v1beta1/resourcedistribution_types.go at
// ac57efda17ca75f1df706d2ccff80de4caefaba4 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type ResourceDistributionSpec struct {
	Resource runtime.RawExtension        `json:"resource"`
	Targets  ResourceDistributionTargets `json:"targets"`
}

type ResourceDistributionTargets struct {
	AllNamespaces          bool                                 `json:"allNamespaces,omitempty"`
	ExcludedNamespaces     ResourceDistributionTargetNamespaces `json:"excludedNamespaces,omitempty"`
	IncludedNamespaces     ResourceDistributionTargetNamespaces `json:"includedNamespaces,omitempty"`
	NamespaceLabelSelector metav1.LabelSelector                 `json:"namespaceLabelSelector,omitempty"`
}

type ResourceDistributionTargetNamespaces struct {
	List []ResourceDistributionNamespace `json:"list,omitempty"`
}

type ResourceDistributionNamespace struct {
	Name string `json:"name,omitempty"`
}

type ResourceDistributionStatus struct {
	Desired            int32                           `json:"desired,omitempty"`
	Succeeded          int32                           `json:"succeeded,omitempty"`
	Failed             int32                           `json:"failed,omitempty"`
	ObservedGeneration int64                           `json:"observedGeneration,omitempty"`
	Conditions         []ResourceDistributionCondition `json:"conditions,omitempty"`
}

type ResourceDistributionCondition struct {
	Type               ResourceDistributionConditionType   `json:"type"`
	Status             ResourceDistributionConditionStatus `json:"status"`
	LastTransitionTime metav1.Time                         `json:"lastTransitionTime,omitempty"`
	Reason             string                              `json:"reason,omitempty"`
	FailedNamespaces   []string                            `json:"failedNamespace,omitempty"`
}

type ResourceDistributionConditionType string

type ResourceDistributionConditionStatus string

type ResourceDistribution struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ResourceDistributionSpec   `json:"spec,omitempty"`
	Status ResourceDistributionStatus `json:"status,omitempty"`
}
