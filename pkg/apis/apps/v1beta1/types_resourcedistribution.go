package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceDistribution copies one Secret or ConfigMap into every namespace its targets
// select and keeps the copies in sync with it (`kubectl get distributor`).
type ResourceDistribution struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec ResourceDistributionSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status ResourceDistributionStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ResourceDistributionSpec is the resource to copy and where to copy it.
type ResourceDistributionSpec struct {
	// Resource is the complete object to distribute: a v1 Secret or ConfigMap with a
	// name. Its namespace, if any, is ignored: copies go to the target namespaces.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:EmbeddedResource
	Resource runtime.RawExtension `json:"resource" protobuf:"bytes,1,opt,name=resource"`

	// Targets select the namespaces that get a copy.
	Targets ResourceDistributionTargets `json:"targets" protobuf:"bytes,2,opt,name=targets"`
}

// ResourceDistributionTargets select namespaces: the union of allNamespaces,
// includedNamespaces and namespaceLabelSelector, minus excludedNamespaces (which wins).
// kube-system and kube-public are never targets.
type ResourceDistributionTargets struct {
	// AllNamespaces selects every namespace (but kube-system and kube-public).
	// +optional
	AllNamespaces bool `json:"allNamespaces,omitempty" protobuf:"varint,1,opt,name=allNamespaces"`

	// ExcludedNamespaces never get a copy, whatever else selects them.
	// +optional
	ExcludedNamespaces ResourceDistributionTargetNamespaces `json:"excludedNamespaces,omitempty" protobuf:"bytes,2,opt,name=excludedNamespaces"`

	// IncludedNamespaces get a copy; one that does not exist is reported in status.
	// +optional
	IncludedNamespaces ResourceDistributionTargetNamespaces `json:"includedNamespaces,omitempty" protobuf:"bytes,3,opt,name=includedNamespaces"`

	// NamespaceLabelSelector selects namespaces by label; empty selects none.
	// +optional
	NamespaceLabelSelector metav1.LabelSelector `json:"namespaceLabelSelector,omitempty" protobuf:"bytes,4,opt,name=namespaceLabelSelector"`
}

// ResourceDistributionTargetNamespaces lists namespaces by name.
type ResourceDistributionTargetNamespaces struct {
	// +optional
	// +listType=atomic
	List []ResourceDistributionNamespace `json:"list,omitempty" protobuf:"bytes,1,rep,name=list"`
}

// ResourceDistributionNamespace names a namespace.
type ResourceDistributionNamespace struct {
	// Name of the namespace.
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
}

// ResourceDistributionStatus counts the target namespaces and the copies in sync, and
// says, by condition, where and why copies could not be made.
type ResourceDistributionStatus struct {
	// Desired is the number of target namespaces.
	// +optional
	Desired int32 `json:"desired,omitempty" protobuf:"varint,1,opt,name=desired"`
	// Succeeded is the number of target namespaces holding an up-to-date copy.
	// +optional
	Succeeded int32 `json:"succeeded,omitempty" protobuf:"varint,2,opt,name=succeeded"`
	// Failed is desired - succeeded.
	// +optional
	Failed int32 `json:"failed,omitempty" protobuf:"varint,3,opt,name=failed"`
	// ObservedGeneration is the generation the status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,4,opt,name=observedGeneration"`
	// Conditions: one per failure type (ConflictOccurred, NamespaceNotExists,
	// GetResourceFailed, CreateResourceFailed, UpdateResourceFailed,
	// DeleteResourceFailed), True with the failed namespaces when it happened.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []ResourceDistributionCondition `json:"conditions,omitempty" protobuf:"bytes,5,rep,name=conditions"`
}

// ResourceDistributionCondition is one type of failure and the namespaces it happened in.
type ResourceDistributionCondition struct {
	// Type of failure.
	Type ResourceDistributionConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=ResourceDistributionConditionType"`
	// Status is True when the failure happened in the last reconcile.
	Status ResourceDistributionConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status,casttype=ResourceDistributionConditionStatus"`
	// LastTransitionTime is when Status last changed.
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// Reason says why it failed ("Succeeded" when it did not).
	// +optional
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// FailedNamespaces are the namespaces where it failed.
	// +optional
	// +listType=atomic
	FailedNamespaces []string `json:"failedNamespace,omitempty" protobuf:"bytes,5,rep,name=failedNamespace"`
}

// ResourceDistributionConditionType is a type of failure.
type ResourceDistributionConditionType string

// OpenKruise's condition types.
const (
	// ResourceDistributionConflictOccurred: an object of the same kind and name, not
	// made by this distribution, is in a target namespace; it is left alone.
	ResourceDistributionConflictOccurred ResourceDistributionConditionType = "ConflictOccurred"
	// ResourceDistributionNamespaceNotExists: an included namespace does not exist or
	// is terminating.
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
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []ResourceDistribution `json:"items" protobuf:"bytes,2,rep,name=items"`
}
