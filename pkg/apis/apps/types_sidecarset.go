package apps

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// SidecarSet injects sidecar containers into every pod it selects when the pod is
// created, and upgrades them in place afterwards. It is cluster-scoped.
type SidecarSet struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   SidecarSetSpec
	Status SidecarSetStatus
}

// SidecarSetSpec is the desired state of a SidecarSet.
type SidecarSetSpec struct {
	// Selector picks the pods to inject into; required and never empty.
	Selector *metav1.LabelSelector
	// Namespace limits the SidecarSet to pods of one namespace.
	Namespace string
	// NamespaceSelector limits the SidecarSet to pods of the namespaces it selects.
	// Namespace and NamespaceSelector are mutually exclusive.
	NamespaceSelector *metav1.LabelSelector
	InitContainers    []SidecarContainer
	Containers        []SidecarContainer
	// Volumes are added to the pod for the sidecars to mount.
	Volumes              []corev1.Volume
	UpdateStrategy       SidecarSetUpdateStrategy
	InjectionStrategy    SidecarSetInjectionStrategy
	ImagePullSecrets     []corev1.LocalObjectReference
	RevisionHistoryLimit *int32
	PatchPodMetadata     []SidecarSetPatchPodMetadata
}

// SidecarContainer is a container to inject plus how to inject and upgrade it.
type SidecarContainer struct {
	corev1.Container
	PodInjectPolicy   PodInjectPolicyType
	UpgradeStrategy   SidecarContainerUpgradeStrategy
	ShareVolumePolicy ShareVolumePolicy
	// ShareVolumeDevicePolicy enabled gives the sidecar the volumeDevices of the pod's
	// own containers; nil (the default) shares none and leaves the hash as before.
	ShareVolumeDevicePolicy *ShareVolumePolicy
	TransferEnv             []TransferEnvVar
	// ResourcesPolicy computes the sidecar's resources from the pod's own containers
	// when the pod is created; it excludes Container.Resources.
	ResourcesPolicy *ResourcesPolicy
}

// ResourcesPolicy derives a sidecar's resources from the containers of the pod it is
// injected into: the containers whose names match TargetContainersNameRegex are
// aggregated by TargetContainersMode, and each expression of ResourcesExpr is evaluated
// with the aggregate bound to its variable (cpu or memory).
type ResourcesPolicy struct {
	TargetContainersMode      TargetContainersModeType
	TargetContainersNameRegex string
	ResourcesExpr             ResourcesExpr
}

// TargetContainersModeType is how the target containers' resources are aggregated.
type TargetContainersModeType string

const (
	TargetContainersModeSum TargetContainersModeType = "sum"
	TargetContainersModeMax TargetContainersModeType = "max"
)

// ResourcesExpr holds the expressions of the sidecar's limits and requests.
type ResourcesExpr struct {
	Limits   *ResourceExprLimits
	Requests *ResourceExprRequests
}

// ResourceExprLimits are the expressions of the sidecar's limits; empty is unset.
type ResourceExprLimits struct {
	CPU    string
	Memory string
}

// ResourceExprRequests are the expressions of the sidecar's requests; empty is unset.
type ResourceExprRequests struct {
	CPU    string
	Memory string
}

// PodInjectPolicyType says where among the pod's containers a sidecar goes.
type PodInjectPolicyType string

const (
	BeforeAppContainerType PodInjectPolicyType = "BeforeAppContainer"
	AfterAppContainerType  PodInjectPolicyType = "AfterAppContainer"
)

// ShareVolumePolicyType says whether a sidecar mounts the app containers' volumes too.
type ShareVolumePolicyType string

const (
	ShareVolumePolicyEnabled  ShareVolumePolicyType = "enabled"
	ShareVolumePolicyDisabled ShareVolumePolicyType = "disabled"
)

// ShareVolumePolicy says whether a sidecar mounts the app containers' volumes too.
type ShareVolumePolicy struct {
	Type ShareVolumePolicyType
}

// TransferEnvVar copies env vars of another container of the pod into the sidecar.
type TransferEnvVar struct {
	SourceContainerName     string
	SourceContainerNameFrom *SourceContainerNameSource
	EnvName                 string
	EnvNames                []string
}

// SourceContainerNameSource reads the source container's name from the pod's metadata.
type SourceContainerNameSource struct {
	FieldRef *corev1.ObjectFieldSelector
}

// SidecarContainerUpgradeType is ColdUpgrade (restart in place) or HotUpgrade (two
// containers that take turns).
type SidecarContainerUpgradeType string

const (
	SidecarContainerColdUpgrade SidecarContainerUpgradeType = "ColdUpgrade"
	SidecarContainerHotUpgrade  SidecarContainerUpgradeType = "HotUpgrade"
)

// SidecarContainerUpgradeStrategy is how one sidecar is upgraded.
type SidecarContainerUpgradeStrategy struct {
	UpgradeType SidecarContainerUpgradeType
	// HotUpgradeEmptyImage is the image the idle container of a hot-upgraded pair runs.
	HotUpgradeEmptyImage string
}

// SidecarSetInjectionStrategy controls injection into new pods.
type SidecarSetInjectionStrategy struct {
	// Paused stops injection into new pods; injected sidecars keep being upgraded.
	Paused bool
	// Revision injects a recorded revision instead of the latest.
	Revision *SidecarSetInjectRevision
}

// SidecarSetInjectRevision names the recorded revision to inject.
type SidecarSetInjectRevision struct {
	// CustomVersion matches the apps.kruise.io/sidecarset-custom-version label of a revision.
	CustomVersion *string
	// RevisionName is the name of a ControllerRevision of this SidecarSet.
	RevisionName *string
	Policy       SidecarSetInjectRevisionPolicy
}

// SidecarSetInjectRevisionPolicy is Always or Partial.
type SidecarSetInjectRevisionPolicy string

const (
	AlwaysSidecarSetInjectRevisionPolicy  SidecarSetInjectRevisionPolicy = "Always"
	PartialSidecarSetInjectRevisionPolicy SidecarSetInjectRevisionPolicy = "Partial"
)

// SidecarSetUpdateStrategy controls upgrades of injected sidecars.
type SidecarSetUpdateStrategy struct {
	Type   SidecarSetUpdateStrategyType
	Paused bool
	// Selector restricts the upgrade to the pods it selects (a canary).
	Selector *metav1.LabelSelector
	// Partition is how many (or what share of) matched pods keep the old sidecars.
	Partition        *intstr.IntOrString
	MaxUnavailable   *intstr.IntOrString
	PriorityStrategy *pub.UpdatePriorityStrategy
	ScatterStrategy  []pub.UpdateScatterTerm
}

// SidecarSetUpdateStrategyType is NotUpdate or RollingUpdate.
type SidecarSetUpdateStrategyType string

const (
	NotUpdateSidecarSetStrategyType     SidecarSetUpdateStrategyType = "NotUpdate"
	RollingUpdateSidecarSetStrategyType SidecarSetUpdateStrategyType = "RollingUpdate"
)

// SidecarSetPatchPodMetadata is pod metadata written with the sidecars.
type SidecarSetPatchPodMetadata struct {
	Annotations map[string]string
	PatchPolicy SidecarSetPatchPolicyType
}

// SidecarSetPatchPolicyType is how a patched annotation meets the pod's own value.
type SidecarSetPatchPolicyType string

const (
	SidecarSetRetainPatchPolicy         SidecarSetPatchPolicyType = "Retain"
	SidecarSetOverwritePatchPolicy      SidecarSetPatchPolicyType = "Overwrite"
	SidecarSetMergePatchJSONPatchPolicy SidecarSetPatchPolicyType = "MergePatchJson"
)

// SidecarSetStatus is the observed state of a SidecarSet.
type SidecarSetStatus struct {
	ObservedGeneration int64
	MatchedPods        int32
	UpdatedPods        int32
	ReadyPods          int32
	UpdatedReadyPods   int32
	LatestRevision     string
	CollisionCount     *int32
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// SidecarSetList is a list of SidecarSets.
type SidecarSetList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []SidecarSet
}
