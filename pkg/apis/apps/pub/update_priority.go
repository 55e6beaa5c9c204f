package pub

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// UpdatePriorityStrategy orders the pods of a rollout. Use either weight or order terms.
type UpdatePriorityStrategy struct {
	// OrderPriority: pods are updated in the order of the integer value of these label
	// keys, highest first; earlier terms win.
	// +optional
	// +listType=atomic
	OrderPriority []UpdatePriorityOrderTerm `json:"orderPriority,omitempty" protobuf:"bytes,1,rep,name=orderPriority"`
	// WeightPriority: each pod gets the sum of the weights of the terms it matches;
	// heavier pods are updated first.
	// +optional
	// +listType=atomic
	WeightPriority []UpdatePriorityWeightTerm `json:"weightPriority,omitempty" protobuf:"bytes,2,rep,name=weightPriority"`
}

// UpdatePriorityOrderTerm names a label whose integer value orders pods.
type UpdatePriorityOrderTerm struct {
	OrderedKey string `json:"orderedKey" protobuf:"bytes,1,opt,name=orderedKey"`
}

// UpdatePriorityWeightTerm adds Weight to every pod MatchSelector selects.
type UpdatePriorityWeightTerm struct {
	// Weight in the range 1-100.
	Weight        int32                `json:"weight" protobuf:"varint,1,opt,name=weight"`
	MatchSelector metav1.LabelSelector `json:"matchSelector" protobuf:"bytes,2,opt,name=matchSelector"`
}

// UpdateScatterTerm spreads pods labelled Key=Value across the rollout instead of
// updating them in one batch.
type UpdateScatterTerm struct {
	Key   string `json:"key" protobuf:"bytes,1,opt,name=key"`
	Value string `json:"value" protobuf:"bytes,2,opt,name=value"`
}
