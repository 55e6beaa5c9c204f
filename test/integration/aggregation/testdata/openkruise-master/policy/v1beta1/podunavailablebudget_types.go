// Source: github.com/openkruise/kruise apis/policy/v1beta1/podunavailablebudget_types.go at
// 446d2e058c1d3e9db4514807056b24ec7f49b5cb (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type PubOperation string

type PodUnavailableBudgetSpec struct {
	Selector             *metav1.LabelSelector `json:"selector,omitempty"`
	TargetReference      *TargetReference      `json:"targetRef,omitempty"`
	MaxUnavailable       *intstr.IntOrString   `json:"maxUnavailable,omitempty"`
	MinAvailable         *intstr.IntOrString   `json:"minAvailable,omitempty"`
	ProtectOperations    []PubOperation        `json:"protectOperations,omitempty"`
	ProtectTotalReplicas *int32                `json:"protectTotalReplicas,omitempty"`
}

type TargetReference struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Name       string `json:"name,omitempty"`
}

type PodUnavailableBudgetStatus struct {
	ObservedGeneration int64                  `json:"observedGeneration"`
	DisruptedPods      map[string]metav1.Time `json:"disruptedPods,omitempty"`
	UnavailablePods    map[string]metav1.Time `json:"unavailablePods,omitempty"`
	UnavailableAllowed int32                  `json:"unavailableAllowed"`
	CurrentAvailable   int32                  `json:"currentAvailable"`
	DesiredAvailable   int32                  `json:"desiredAvailable"`
	TotalReplicas      int32                  `json:"totalReplicas"`
}

type PodUnavailableBudget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PodUnavailableBudgetSpec   `json:"spec,omitempty"`
	Status PodUnavailableBudgetStatus `json:"status,omitempty"`
}
