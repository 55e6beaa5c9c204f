package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// SidecarSet injects sidecar containers into every pod it selects when the pod is
// created, and upgrades them in place afterwards. It is cluster-scoped.
type SidecarSet struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// +optional
	Spec SidecarSetSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// +optional
	Status SidecarSetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// SidecarSetSpec is the desired state of a SidecarSet.
type SidecarSetSpec struct {
	// Selector is a label query over the pods to inject into; required and never empty.
	Selector *metav1.LabelSelector `json:"selector,omitempty" protobuf:"bytes,1,opt,name=selector"`
	// Namespace limits the SidecarSet to pods of this namespace; empty means every namespace.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,2,opt,name=namespace"`
	// NamespaceSelector limits the SidecarSet to pods of the namespaces it selects.
	// Namespace and namespaceSelector are mutually exclusive.
	// +optional
	NamespaceSelector *metav1.LabelSelector `json:"namespaceSelector,omitempty" protobuf:"bytes,3,opt,name=namespaceSelector"`
	// InitContainers are injected into new pods only (never into running ones).
	// +optional
	// +patchMergeKey=name
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=name
	InitContainers []SidecarContainer `json:"initContainers,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,4,rep,name=initContainers"`
	// Containers are the sidecar containers injected into the selected pods.
	// +optional
	// +patchMergeKey=name
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=name
	Containers []SidecarContainer `json:"containers,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,5,rep,name=containers"`
	// Volumes are added to the pod for the sidecars to mount.
	// +optional
	// +patchMergeKey=name
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=name
	Volumes []corev1.Volume `json:"volumes,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,6,rep,name=volumes"`
	// UpdateStrategy controls upgrades of the sidecars already injected.
	// +optional
	UpdateStrategy SidecarSetUpdateStrategy `json:"updateStrategy,omitempty" protobuf:"bytes,7,opt,name=updateStrategy"`
	// InjectionStrategy controls injection into new pods.
	// +optional
	InjectionStrategy SidecarSetInjectionStrategy `json:"injectionStrategy,omitempty" protobuf:"bytes,8,opt,name=injectionStrategy"`
	// ImagePullSecrets are added to the pod for the sidecar images.
	// +optional
	// +patchMergeKey=name
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=name
	ImagePullSecrets []corev1.LocalObjectReference `json:"imagePullSecrets,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,9,rep,name=imagePullSecrets"`
	// RevisionHistoryLimit is how many old ControllerRevisions are kept. Defaults to 10.
	// +optional
	// +default=10
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,10,opt,name=revisionHistoryLimit"`
	// PatchPodMetadata are annotations written into the pod with the sidecars.
	// +optional
	// +listType=atomic
	PatchPodMetadata []SidecarSetPatchPodMetadata `json:"patchPodMetadata,omitempty" protobuf:"bytes,11,rep,name=patchPodMetadata"`
}

// SidecarContainer is a container to inject plus how to inject and upgrade it.
type SidecarContainer struct {
	corev1.Container `json:",inline" protobuf:"bytes,1,opt,name=container"`

	// PodInjectPolicy puts the sidecar before (default) or after the pod's own containers.
	// +optional
	PodInjectPolicy PodInjectPolicyType `json:"podInjectPolicy,omitempty" protobuf:"bytes,2,opt,name=podInjectPolicy,casttype=PodInjectPolicyType"`
	// UpgradeStrategy is ColdUpgrade (default) or HotUpgrade.
	// +optional
	UpgradeStrategy SidecarContainerUpgradeStrategy `json:"upgradeStrategy,omitempty" protobuf:"bytes,3,opt,name=upgradeStrategy"`
	// ShareVolumePolicy enabled mounts the volumes of the pod's own containers into the sidecar.
	// Defaults to disabled.
	// +optional
	ShareVolumePolicy ShareVolumePolicy `json:"shareVolumePolicy,omitempty" protobuf:"bytes,4,opt,name=shareVolumePolicy"`
	// ShareVolumeDevicePolicy enabled gives the sidecar the volumeDevices of the pod's own
	// containers (raw block volumes), as shareVolumePolicy does for volumeMounts. A
	// pointer, as in OpenKruise: left unset, the kruise.io/sidecarset-hash of existing
	// SidecarSets stays as it was.
	// +optional
	ShareVolumeDevicePolicy *ShareVolumePolicy `json:"shareVolumeDevicePolicy,omitempty" protobuf:"bytes,7,opt,name=shareVolumeDevicePolicy"`
	// TransferEnv copies env vars of the pod's own containers into the sidecar.
	// +optional
	// +listType=atomic
	TransferEnv []TransferEnvVar `json:"transferEnv,omitempty" protobuf:"bytes,5,rep,name=transferEnv"`
	// ResourcesPolicy computes the sidecar's resources from the pod's own containers
	// when the pod is created. It cannot be set together with resources.
	// +optional
	ResourcesPolicy *ResourcesPolicy `json:"resourcesPolicy,omitempty" protobuf:"bytes,6,opt,name=resourcesPolicy"`
}

// ResourcesPolicy derives a sidecar's resources from the containers of the pod it is
// injected into, when the pod is created: the containers (plain ones and native
// sidecars, never Kruise-injected sidecars) whose names match
// targetContainersNameRegex are aggregated by targetContainersMode, and each
// expression of resourcesExpr is evaluated with the aggregate bound to its variable.
type ResourcesPolicy struct {
	// TargetContainersMode is sum or max.
	TargetContainersMode TargetContainersModeType `json:"targetContainersMode" protobuf:"bytes,1,opt,name=targetContainersMode,casttype=TargetContainersModeType"`
	// TargetContainersNameRegex selects the pod's containers to aggregate; a pod with
	// none that matches is refused.
	TargetContainersNameRegex string `json:"targetContainersNameRegex" protobuf:"bytes,2,opt,name=targetContainersNameRegex"`
	// ResourcesExpr holds the expressions of the sidecar's limits and requests.
	ResourcesExpr ResourcesExpr `json:"resourcesExpr" protobuf:"bytes,3,opt,name=resourcesExpr"`
}

// TargetContainersModeType is how the target containers' resources are aggregated.
// +enum
type TargetContainersModeType string

const (
	// TargetContainersModeSum adds the target containers' values.
	TargetContainersModeSum TargetContainersModeType = "sum"
	// TargetContainersModeMax takes the largest of the target containers' values.
	TargetContainersModeMax TargetContainersModeType = "max"
)

// ResourcesExpr holds the expressions of the sidecar's limits and requests. An
// expression uses numbers, percentages (50%), quantities (50m, 100Mi), + - * /,
// parentheses, min(), max() and one variable: cpu in a cpu expression, memory in a
// memory expression.
type ResourcesExpr struct {
	// Limits: a target container without a limit makes the aggregate unlimited, and
	// then the sidecar gets no limit for that resource.
	// +optional
	Limits *ResourceExprLimits `json:"limits,omitempty" protobuf:"bytes,1,opt,name=limits"`
	// Requests: a target container without a request counts as 0.
	// +optional
	Requests *ResourceExprRequests `json:"requests,omitempty" protobuf:"bytes,2,opt,name=requests"`
}

// ResourceExprLimits are the expressions of the sidecar's limits.
type ResourceExprLimits struct {
	// +optional
	CPU string `json:"cpu,omitempty" protobuf:"bytes,1,opt,name=cpu"`
	// +optional
	Memory string `json:"memory,omitempty" protobuf:"bytes,2,opt,name=memory"`
}

// ResourceExprRequests are the expressions of the sidecar's requests.
type ResourceExprRequests struct {
	// +optional
	CPU string `json:"cpu,omitempty" protobuf:"bytes,1,opt,name=cpu"`
	// +optional
	Memory string `json:"memory,omitempty" protobuf:"bytes,2,opt,name=memory"`
}

// PodInjectPolicyType says where among the pod's containers a sidecar goes.
// +enum
type PodInjectPolicyType string

const (
	BeforeAppContainerType PodInjectPolicyType = "BeforeAppContainer"
	AfterAppContainerType  PodInjectPolicyType = "AfterAppContainer"
)

// ShareVolumePolicyType is enabled or disabled.
// +enum
type ShareVolumePolicyType string

const (
	ShareVolumePolicyEnabled  ShareVolumePolicyType = "enabled"
	ShareVolumePolicyDisabled ShareVolumePolicyType = "disabled"
)

// ShareVolumePolicy says whether a sidecar mounts the pod's own containers' volumes too.
type ShareVolumePolicy struct {
	// +optional
	// +default="disabled"
	Type ShareVolumePolicyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=ShareVolumePolicyType"`
}

// TransferEnvVar copies env vars of another container of the pod into the sidecar.
type TransferEnvVar struct {
	// SourceContainerName is the container to copy from.
	// +optional
	SourceContainerName string `json:"sourceContainerName,omitempty" protobuf:"bytes,1,opt,name=sourceContainerName"`
	// SourceContainerNameFrom reads the container to copy from out of the pod's metadata.
	// +optional
	SourceContainerNameFrom *SourceContainerNameSource `json:"sourceContainerNameFrom,omitempty" protobuf:"bytes,2,opt,name=sourceContainerNameFrom"`
	// EnvName is one env var to copy.
	// +optional
	EnvName string `json:"envName,omitempty" protobuf:"bytes,3,opt,name=envName"`
	// EnvNames are env vars to copy.
	// +optional
	// +listType=atomic
	EnvNames []string `json:"envNames,omitempty" protobuf:"bytes,4,rep,name=envNames"`
}

// SourceContainerNameSource reads the source container's name from the pod's metadata.
type SourceContainerNameSource struct {
	// FieldRef selects metadata.name, metadata.labels['<key>'] or metadata.annotations['<key>'].
	// +optional
	FieldRef *corev1.ObjectFieldSelector `json:"fieldRef,omitempty" protobuf:"bytes,1,opt,name=fieldRef"`
}

// SidecarContainerUpgradeType is ColdUpgrade or HotUpgrade.
// +enum
type SidecarContainerUpgradeType string

const (
	// SidecarContainerColdUpgrade restarts the sidecar in place with the new image.
	SidecarContainerColdUpgrade SidecarContainerUpgradeType = "ColdUpgrade"
	// SidecarContainerHotUpgrade runs the sidecar as two containers (<name>-1, <name>-2)
	// that take turns: the idle one is upgraded, then takes over.
	SidecarContainerHotUpgrade SidecarContainerUpgradeType = "HotUpgrade"
)

// SidecarContainerUpgradeStrategy is how one sidecar is upgraded.
type SidecarContainerUpgradeStrategy struct {
	// UpgradeType is ColdUpgrade (default) or HotUpgrade; it cannot change.
	// +optional
	// +default="ColdUpgrade"
	UpgradeType SidecarContainerUpgradeType `json:"upgradeType,omitempty" protobuf:"bytes,1,opt,name=upgradeType,casttype=SidecarContainerUpgradeType"`
	// HotUpgradeEmptyImage is the image the idle container of a HotUpgrade pair runs:
	// same command and probes as the sidecar, no work. Required for HotUpgrade.
	// +optional
	HotUpgradeEmptyImage string `json:"hotUpgradeEmptyImage,omitempty" protobuf:"bytes,2,opt,name=hotUpgradeEmptyImage"`
}

// SidecarSetInjectionStrategy controls injection into new pods.
type SidecarSetInjectionStrategy struct {
	// Paused stops injection into new pods; injected sidecars keep being upgraded.
	// +optional
	Paused bool `json:"paused,omitempty" protobuf:"varint,1,opt,name=paused"`
	// Revision injects a recorded revision instead of the latest.
	// +optional
	Revision *SidecarSetInjectRevision `json:"revision,omitempty" protobuf:"bytes,2,opt,name=revision"`
}

// SidecarSetInjectRevision names the recorded revision to inject: by custom version
// or by ControllerRevision name.
type SidecarSetInjectRevision struct {
	// CustomVersion matches the apps.kruise.io/sidecarset-custom-version label of a revision.
	// +optional
	CustomVersion *string `json:"customVersion,omitempty" protobuf:"bytes,1,opt,name=customVersion"`
	// RevisionName is the name of a ControllerRevision of this SidecarSet.
	// +optional
	RevisionName *string `json:"revisionName,omitempty" protobuf:"bytes,2,opt,name=revisionName"`
	// Policy is Always (default: every new pod gets the named revision) or Partial
	// (pods the update strategy would update get the latest).
	// +optional
	// +default="Always"
	Policy SidecarSetInjectRevisionPolicy `json:"policy,omitempty" protobuf:"bytes,3,opt,name=policy,casttype=SidecarSetInjectRevisionPolicy"`
}

// SidecarSetInjectRevisionPolicy is Always or Partial.
// +enum
type SidecarSetInjectRevisionPolicy string

const (
	AlwaysSidecarSetInjectRevisionPolicy  SidecarSetInjectRevisionPolicy = "Always"
	PartialSidecarSetInjectRevisionPolicy SidecarSetInjectRevisionPolicy = "Partial"
)

// SidecarSetUpdateStrategy controls upgrades of injected sidecars.
type SidecarSetUpdateStrategy struct {
	// Type is RollingUpdate (default) or NotUpdate (inject into new pods only).
	// +optional
	// +default="RollingUpdate"
	Type SidecarSetUpdateStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=SidecarSetUpdateStrategyType"`
	// Paused stops upgrades of injected pods; injection into new pods goes on.
	// +optional
	Paused bool `json:"paused,omitempty" protobuf:"varint,2,opt,name=paused"`
	// Selector restricts the upgrade to the pods it selects (a canary).
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty" protobuf:"bytes,3,opt,name=selector"`
	// Partition is how many (or what share of) matched pods keep the old sidecars.
	// Defaults to 0.
	// +optional
	// +default=0
	Partition *intstr.IntOrString `json:"partition,omitempty" protobuf:"bytes,4,opt,name=partition"`
	// MaxUnavailable is how many (or what share of, rounded up) matched pods may be
	// unavailable for the upgrade at once; not 0. Defaults to 1.
	// +optional
	// +default=1
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,5,opt,name=maxUnavailable"`
	// PriorityStrategy orders the pods of the upgrade.
	// +optional
	PriorityStrategy *pub.UpdatePriorityStrategy `json:"priorityStrategy,omitempty" protobuf:"bytes,6,opt,name=priorityStrategy"`
	// ScatterStrategy spreads pods with these labels across the upgrade.
	// +optional
	// +listType=atomic
	ScatterStrategy []pub.UpdateScatterTerm `json:"scatterStrategy,omitempty" protobuf:"bytes,7,rep,name=scatterStrategy"`
}

// SidecarSetUpdateStrategyType is NotUpdate or RollingUpdate.
// +enum
type SidecarSetUpdateStrategyType string

const (
	NotUpdateSidecarSetStrategyType     SidecarSetUpdateStrategyType = "NotUpdate"
	RollingUpdateSidecarSetStrategyType SidecarSetUpdateStrategyType = "RollingUpdate"
)

// SidecarSetPatchPodMetadata is pod metadata written with the sidecars.
type SidecarSetPatchPodMetadata struct {
	// Annotations to write into the pod.
	// +optional
	Annotations map[string]string `json:"annotations,omitempty" protobuf:"bytes,1,rep,name=annotations"`
	// PatchPolicy is Retain (default: a value the pod has wins), Overwrite, or
	// MergePatchJson (JSON values are merged).
	// +optional
	// +default="Retain"
	PatchPolicy SidecarSetPatchPolicyType `json:"patchPolicy,omitempty" protobuf:"bytes,2,opt,name=patchPolicy,casttype=SidecarSetPatchPolicyType"`
}

// SidecarSetPatchPolicyType is Retain, Overwrite or MergePatchJson.
// +enum
type SidecarSetPatchPolicyType string

const (
	SidecarSetRetainPatchPolicy         SidecarSetPatchPolicyType = "Retain"
	SidecarSetOverwritePatchPolicy      SidecarSetPatchPolicyType = "Overwrite"
	SidecarSetMergePatchJSONPatchPolicy SidecarSetPatchPolicyType = "MergePatchJson"
)

// SidecarSetStatus is the observed state of a SidecarSet.
type SidecarSetStatus struct {
	// ObservedGeneration is the generation the counts below describe.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	// MatchedPods is the number of pods the SidecarSet selects.
	MatchedPods int32 `json:"matchedPods" protobuf:"varint,2,opt,name=matchedPods"`
	// UpdatedPods is the number of matched pods that run the latest sidecars.
	UpdatedPods int32 `json:"updatedPods" protobuf:"varint,3,opt,name=updatedPods"`
	// ReadyPods is the number of matched pods that are ready.
	ReadyPods int32 `json:"readyPods" protobuf:"varint,4,opt,name=readyPods"`
	// UpdatedReadyPods is the number of matched pods that are updated and ready.
	// +optional
	UpdatedReadyPods int32 `json:"updatedReadyPods,omitempty" protobuf:"varint,5,opt,name=updatedReadyPods"`
	// LatestRevision is the name of the ControllerRevision of the current spec.
	// +optional
	LatestRevision string `json:"latestRevision,omitempty" protobuf:"bytes,6,opt,name=latestRevision"`
	// CollisionCount counts hash collisions of revision names.
	// +optional
	CollisionCount *int32 `json:"collisionCount,omitempty" protobuf:"varint,7,opt,name=collisionCount"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// SidecarSetList is a list of SidecarSets.
type SidecarSetList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []SidecarSet `json:"items" protobuf:"bytes,2,rep,name=items"`
}
