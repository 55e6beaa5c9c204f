package pub

// Lifecycle defines hooks that hold a pod in a transitional state until an external
// party has done its work (for example: removed it from a load balancer).
type Lifecycle struct {
	// PreDelete is the hook before a pod is deleted.
	// +optional
	PreDelete *LifecycleHook `json:"preDelete,omitempty" protobuf:"bytes,1,opt,name=preDelete"`
	// InPlaceUpdate is the hook before a pod is updated in place.
	// +optional
	InPlaceUpdate *LifecycleHook `json:"inPlaceUpdate,omitempty" protobuf:"bytes,2,opt,name=inPlaceUpdate"`
	// PreNormal is the hook after a pod is created and before it becomes Normal.
	// +optional
	PreNormal *LifecycleHook `json:"preNormal,omitempty" protobuf:"bytes,3,opt,name=preNormal"`
}

// LifecycleHook says what on a pod marks it as held by the hook.
type LifecycleHook struct {
	// LabelsHandler: the hook holds the pod while the pod carries these labels.
	// +optional
	LabelsHandler map[string]string `json:"labelsHandler,omitempty" protobuf:"bytes,1,rep,name=labelsHandler"`
	// FinalizersHandler: the hook holds the pod while the pod carries these finalizers.
	// +optional
	// +listType=atomic
	FinalizersHandler []string `json:"finalizersHandler,omitempty" protobuf:"bytes,2,rep,name=finalizersHandler"`
	// MarkPodNotReady sets the pod's KruisePodReady condition to False while the hook runs,
	// so endpoints drop the pod before the hooked operation.
	// +optional
	MarkPodNotReady bool `json:"markPodNotReady,omitempty" protobuf:"varint,3,opt,name=markPodNotReady"`
}

// LifecycleStateType is the value of the lifecycle.apps.kruise.io/state label.
type LifecycleStateType string

const (
	// LifecycleStateKey is the label that records a pod's lifecycle state.
	LifecycleStateKey = "lifecycle.apps.kruise.io/state"
	// LifecycleTimestampKey is the annotation that records when the state last changed.
	LifecycleTimestampKey = "lifecycle.apps.kruise.io/timestamp"

	LifecycleStatePreparingNormal LifecycleStateType = "PreparingNormal"
	LifecycleStateNormal          LifecycleStateType = "Normal"
	LifecycleStatePreparingUpdate LifecycleStateType = "PreparingUpdate"
	LifecycleStateUpdating        LifecycleStateType = "Updating"
	LifecycleStateUpdated         LifecycleStateType = "Updated"
	LifecycleStatePreparingDelete LifecycleStateType = "PreparingDelete"
)
