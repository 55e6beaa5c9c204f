package apps

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceDistribution copies one Secret or ConfigMap into every namespace its targets
// select and keeps the copies in sync with it. It is cluster-scoped.
type ResourceDistribution struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   ResourceDistributionSpec
	Status ResourceDistributionStatus
}

// ResourceDistributionSpec is the resource to copy and where to copy it.
type ResourceDistributionSpec struct {
	// Resource is the complete object to distribute (a v1 Secret or ConfigMap), kept as
	// the raw JSON it was written in.
	Resource runtime.RawExtension
	// Targets select the namespaces that get a copy.
	Targets ResourceDistributionTargets
}

// ResourceDistributionTargets select namespaces: the union of AllNamespaces,
// IncludedNamespaces and NamespaceLabelSelector, minus ExcludedNamespaces.
type ResourceDistributionTargets struct {
	AllNamespaces          bool
	ExcludedNamespaces     ResourceDistributionTargetNamespaces
	IncludedNamespaces     ResourceDistributionTargetNamespaces
	NamespaceLabelSelector metav1.LabelSelector
}

// ResourceDistributionTargetNamespaces lists namespaces by name.
type ResourceDistributionTargetNamespaces struct {
	List []ResourceDistributionNamespace
}

// ResourceDistributionNamespace names a namespace.
type ResourceDistributionNamespace struct {
	Name string
}

// ResourceDistributionStatus counts the target namespaces and the copies in sync, and
// says, by condition, where and why copies could not be made.
type ResourceDistributionStatus struct {
	Desired            int32
	Succeeded          int32
	Failed             int32
	ObservedGeneration int64
	Conditions         []ResourceDistributionCondition
}

// ResourceDistributionCondition is one kind of failure and the namespaces it happened in.
type ResourceDistributionCondition struct {
	Type               ResourceDistributionConditionType
	Status             ResourceDistributionConditionStatus
	LastTransitionTime metav1.Time
	// Reason is the message of the failure (OpenKruise's field name).
	Reason           string
	FailedNamespaces []string
}

// ResourceDistributionConditionType is a kind of failure.
type ResourceDistributionConditionType string

// OpenKruise's condition types: every status lists all six, True where it failed.
const (
	ResourceDistributionConflictOccurred     ResourceDistributionConditionType = "ConflictOccurred"
	ResourceDistributionNamespaceNotExists   ResourceDistributionConditionType = "NamespaceNotExists"
	ResourceDistributionGetResourceFailed    ResourceDistributionConditionType = "GetResourceFailed"
	ResourceDistributionCreateResourceFailed ResourceDistributionConditionType = "CreateResourceFailed"
	ResourceDistributionUpdateResourceFailed ResourceDistributionConditionType = "UpdateResourceFailed"
	ResourceDistributionDeleteResourceFailed ResourceDistributionConditionType = "DeleteResourceFailed"
)

// ResourceDistributionConditionStatus is True, False or Unknown.
type ResourceDistributionConditionStatus string

// Condition statuses.
const (
	ResourceDistributionConditionTrue    ResourceDistributionConditionStatus = "True"
	ResourceDistributionConditionFalse   ResourceDistributionConditionStatus = "False"
	ResourceDistributionConditionUnknown ResourceDistributionConditionStatus = "Unknown"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceDistributionList is a list of ResourceDistributions.
type ResourceDistributionList struct {
	metav1.TypeMeta
	metav1.ListMeta

	Items []ResourceDistribution
}
