// Source: github.com/openkruise/kruise apis/apps/v1beta1/sidecarset_types.go at
// ac57efda17ca75f1df706d2ccff80de4caefaba4 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	appspub "github.com/openkruise/kruise/apis/apps/pub"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type SidecarSetSpec struct {
	Selector             *metav1.LabelSelector         `json:"selector,omitempty"`
	Namespace            string                        `json:"namespace,omitempty"`
	NamespaceSelector    *metav1.LabelSelector         `json:"namespaceSelector,omitempty"`
	InitContainers       []SidecarContainer            `json:"initContainers,omitempty"`
	Containers           []SidecarContainer            `json:"containers,omitempty"`
	Volumes              []corev1.Volume               `json:"volumes,omitempty"`
	UpdateStrategy       SidecarSetUpdateStrategy      `json:"updateStrategy,omitempty"`
	InjectionStrategy    SidecarSetInjectionStrategy   `json:"injectionStrategy,omitempty"`
	ImagePullSecrets     []corev1.LocalObjectReference `json:"imagePullSecrets,omitempty"`
	RevisionHistoryLimit *int32                        `json:"revisionHistoryLimit,omitempty"`
	PatchPodMetadata     []SidecarSetPatchPodMetadata  `json:"patchPodMetadata,omitempty"`
}

type SidecarSetPatchPodMetadata struct {
	Annotations map[string]string         `json:"annotations,omitempty"`
	PatchPolicy SidecarSetPatchPolicyType `json:"patchPolicy,omitempty"`
}

type SidecarSetPatchPolicyType string

type SidecarContainer struct {
	corev1.Container `json:",inline"`

	PodInjectPolicy   PodInjectPolicyType             `json:"podInjectPolicy,omitempty"`
	UpgradeStrategy   SidecarContainerUpgradeStrategy `json:"upgradeStrategy,omitempty"`
	ShareVolumePolicy ShareVolumePolicy               `json:"shareVolumePolicy,omitempty"`
	TransferEnv       []TransferEnvVar                `json:"transferEnv,omitempty"`
}

type ShareVolumePolicy struct {
	Type ShareVolumePolicyType `json:"type,omitempty"`
}

type PodInjectPolicyType string

type ShareVolumePolicyType string

type TransferEnvVar struct {
	SourceContainerName     string                     `json:"sourceContainerName,omitempty"`
	SourceContainerNameFrom *SourceContainerNameSource `json:"sourceContainerNameFrom,omitempty"`
	EnvName                 string                     `json:"envName,omitempty"`
	EnvNames                []string                   `json:"envNames,omitempty"`
}

type SourceContainerNameSource struct {
	FieldRef *corev1.ObjectFieldSelector `json:"fieldRef,omitempty"`
}

type SidecarContainerUpgradeType string

type SidecarContainerUpgradeStrategy struct {
	UpgradeType          SidecarContainerUpgradeType `json:"upgradeType,omitempty"`
	HotUpgradeEmptyImage string                      `json:"hotUpgradeEmptyImage,omitempty"`
}

type SidecarSetInjectionStrategy struct {
	Paused   bool                      `json:"paused,omitempty"`
	Revision *SidecarSetInjectRevision `json:"revision,omitempty"`
}

type SidecarSetInjectRevision struct {
	CustomVersion *string                        `json:"customVersion,omitempty"`
	RevisionName  *string                        `json:"revisionName,omitempty"`
	Policy        SidecarSetInjectRevisionPolicy `json:"policy,omitempty"`
}

type SidecarSetInjectRevisionPolicy string

type SidecarSetUpdateStrategy struct {
	Type             SidecarSetUpdateStrategyType    `json:"type,omitempty"`
	Paused           bool                            `json:"paused,omitempty"`
	Selector         *metav1.LabelSelector           `json:"selector,omitempty"`
	Partition        *intstr.IntOrString             `json:"partition,omitempty"`
	MaxUnavailable   *intstr.IntOrString             `json:"maxUnavailable,omitempty"`
	PriorityStrategy *appspub.UpdatePriorityStrategy `json:"priorityStrategy,omitempty"`
	ScatterStrategy  UpdateScatterStrategy           `json:"scatterStrategy,omitempty"`
}

type SidecarSetUpdateStrategyType string

type SidecarSetStatus struct {
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
	MatchedPods        int32  `json:"matchedPods"`
	UpdatedPods        int32  `json:"updatedPods"`
	ReadyPods          int32  `json:"readyPods"`
	UpdatedReadyPods   int32  `json:"updatedReadyPods,omitempty"`
	LatestRevision     string `json:"latestRevision,omitempty"`
	CollisionCount     *int32 `json:"collisionCount,omitempty"`
}

type SidecarSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SidecarSetSpec   `json:"spec,omitempty"`
	Status SidecarSetStatus `json:"status,omitempty"`
}
