package policy

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Annotations that steer the pod webhook's budget check (same keys as OpenKruise).
const (
	// PubProtectOperationAnnotation, on a budget, lists the operations it guards,
	// comma separated (DELETE, EVICT, UPDATE); unset means all three.
	PubProtectOperationAnnotation = "kruise.io/pub-protect-operations"
	// PubProtectTotalReplicasAnnotation, on a budget, overrides the replicas the
	// budget counts when its pods have no workload with replicas.
	PubProtectTotalReplicasAnnotation = "pub.kruise.io/protect-total-replicas"
	// PodPubNoProtectionAnnotation "true" on a pod lets every disruption of it through.
	PodPubNoProtectionAnnotation = "pub.kruise.io/no-protect"
	// PubIgnoredPodSelectorAnnotation carries spec.ignoredPodSelector (JSON) on a
	// v1alpha1 budget, which has no such field.
	PubIgnoredPodSelectorAnnotation = "pub.kruise.io/ignored-pod-selector"
)

// PubOperation is a disruption a budget can guard.
type PubOperation string

// The operations a budget guards.
const (
	PubUpdateOperation PubOperation = "UPDATE"
	PubDeleteOperation PubOperation = "DELETE"
	PubEvictOperation  PubOperation = "EVICT"
)

// PubOperations are the operations a budget may name (validation and the v1alpha1
// annotation's conversion read them).
var PubOperations = []PubOperation{PubDeleteOperation, PubEvictOperation, PubUpdateOperation}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodUnavailableBudget limits how many of a set of pods may be unavailable through
// voluntary disruptions at a time: deletion, eviction and in-place updates.
type PodUnavailableBudget struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   PodUnavailableBudgetSpec
	Status PodUnavailableBudgetStatus
}

// PodUnavailableBudgetSpec names the pods (selector or targetRef, exactly one) and
// the budget (maxUnavailable or minAvailable, exactly one).
type PodUnavailableBudgetSpec struct {
	Selector        *metav1.LabelSelector
	TargetReference *TargetReference
	MaxUnavailable  *intstr.IntOrString
	MinAvailable    *intstr.IntOrString
	// ProtectOperations are the disruptions guarded; empty means all (v1beta1 only:
	// v1alpha1 carries them in PubProtectOperationAnnotation).
	ProtectOperations []PubOperation
	// ProtectTotalReplicas overrides the replicas counted (v1alpha1:
	// PubProtectTotalReplicasAnnotation).
	ProtectTotalReplicas *int32
	// IgnoredPodSelector selects pods that are never guarded nor counted (v1alpha1:
	// PubIgnoredPodSelectorAnnotation, as JSON).
	IgnoredPodSelector *metav1.LabelSelector
}

// TargetReference names a workload in the budget's namespace.
type TargetReference struct {
	APIVersion string
	Kind       string
	Name       string
}

// PodUnavailableBudgetStatus is what the controller observed and what the webhook
// has consumed since.
type PodUnavailableBudgetStatus struct {
	ObservedGeneration int64
	// DisruptedPods: pods the webhook let be deleted or evicted, not yet seen gone.
	DisruptedPods map[string]metav1.Time
	// UnavailablePods: pods the webhook let be updated in place, not yet seen available again.
	UnavailablePods    map[string]metav1.Time
	UnavailableAllowed int32
	CurrentAvailable   int32
	DesiredAvailable   int32
	TotalReplicas      int32
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodUnavailableBudgetList is a list of PodUnavailableBudgets.
type PodUnavailableBudgetList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []PodUnavailableBudget
}
