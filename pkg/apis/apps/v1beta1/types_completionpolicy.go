package v1beta1

// CompletionPolicy says whether a job ends; BroadcastJob, ImagePullJob and
// ImageListPullJob share it.
type CompletionPolicy struct {
	// Type is Always (the job ends once every node finished, or at its deadline) or
	// Never (the job keeps running for nodes that join later). Defaults to Always.
	// +optional
	// +default="Always"
	Type CompletionPolicyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=CompletionPolicyType"`
	// ActiveDeadlineSeconds bounds the job from its start (Always only).
	// +optional
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty" protobuf:"varint,2,opt,name=activeDeadlineSeconds"`
	// TTLSecondsAfterFinished deletes the job this long after it ended (Always only).
	// +optional
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty" protobuf:"varint,3,opt,name=ttlSecondsAfterFinished"`
}

// CompletionPolicyType is Always or Never.
// +enum
type CompletionPolicyType string

const (
	// Always: the job ends when every desired node finished, or at its deadline.
	Always CompletionPolicyType = "Always"
	// Never: the job never ends; nodes that join later get their pod too.
	Never CompletionPolicyType = "Never"
)
