// Source: github.com/openkruise/kruise apis/apps/v1beta1/daemonset_types.go at
// ac57efda17ca75f1df706d2ccff80de4caefaba4 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

import (
	appspub "github.com/openkruise/kruise/apis/apps/pub"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type DaemonSetUpdateStrategy struct {
	Type          DaemonSetUpdateStrategyType `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDaemonSet     `json:"rollingUpdate,omitempty"`
}

type DaemonSetUpdateStrategyType string
type RollingUpdateType string

type RollingUpdateDaemonSet struct {
	Type           RollingUpdateType     `json:"rollingUpdateType,omitempty"`
	MaxUnavailable *intstr.IntOrString   `json:"maxUnavailable,omitempty"`
	MaxSurge       *intstr.IntOrString   `json:"maxSurge,omitempty"`
	Selector       *metav1.LabelSelector `json:"selector,omitempty"`
	Partition      *int32                `json:"partition,omitempty"`
	Paused         *bool                 `json:"paused,omitempty"`
}

type DaemonSetSpec struct {
	Selector             *metav1.LabelSelector   `json:"selector"`
	Template             corev1.PodTemplateSpec  `json:"template"`
	UpdateStrategy       DaemonSetUpdateStrategy `json:"updateStrategy,omitempty"`
	MinReadySeconds      int32                   `json:"minReadySeconds,omitempty"`
	BurstReplicas        *intstr.IntOrString     `json:"burstReplicas,omitempty"`
	RevisionHistoryLimit *int32                  `json:"revisionHistoryLimit,omitempty"`
	Lifecycle            *appspub.Lifecycle      `json:"lifecycle,omitempty"`
}

type DaemonSetStatus struct {
	CurrentNumberScheduled int32                       `json:"currentNumberScheduled"`
	NumberMisscheduled     int32                       `json:"numberMisscheduled"`
	DesiredNumberScheduled int32                       `json:"desiredNumberScheduled"`
	NumberReady            int32                       `json:"numberReady"`
	ObservedGeneration     int64                       `json:"observedGeneration,omitempty"`
	UpdatedNumberScheduled int32                       `json:"updatedNumberScheduled"`
	NumberAvailable        int32                       `json:"numberAvailable,omitempty"`
	NumberUnavailable      int32                       `json:"numberUnavailable,omitempty"`
	CollisionCount         *int32                      `json:"collisionCount,omitempty"`
	Conditions             []appsv1.DaemonSetCondition `json:"conditions,omitempty"`
	DaemonSetHash          string                      `json:"daemonSetHash"`
}

type DaemonSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   DaemonSetSpec   `json:"spec,omitempty"`
	Status DaemonSetStatus `json:"status,omitempty"`
}
