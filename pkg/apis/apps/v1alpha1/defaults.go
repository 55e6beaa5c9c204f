package v1alpha1

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"
)

func addDefaultingFuncs(scheme *runtime.Scheme) error {
	return RegisterDefaults(scheme)
}

// SetDefaults_CloneSet fills in what OpenKruise defaults for a v1alpha1 CloneSet.
func SetDefaults_CloneSet(obj *CloneSet) {
	if obj.Spec.Replicas == nil {
		obj.Spec.Replicas = ptr.To[int32](1)
	}
	if obj.Spec.RevisionHistoryLimit == nil {
		obj.Spec.RevisionHistoryLimit = ptr.To[int32](10)
	}
	defaulting.PodTemplate(&obj.Spec.Template)
	defaulting.ClaimTemplates(obj.Spec.VolumeClaimTemplates)

	s := &obj.Spec.UpdateStrategy
	if s.Type == "" {
		s.Type = RecreateCloneSetUpdateStrategyType
	}
	// OnDelete has no rollout to parameterise; v1beta1 leaves rollingUpdate unset for
	// it, and both versions must default to the same stored object.
	if s.Type == OnDeleteCloneSetUpdateStrategyType {
		return
	}
	if s.Partition == nil {
		s.Partition = ptr.To(intstr.FromInt32(0))
	}
	if s.MaxUnavailable == nil {
		s.MaxUnavailable = ptr.To(intstr.FromString("20%"))
	}
	if s.MaxSurge == nil {
		s.MaxSurge = ptr.To(intstr.FromInt32(0))
	}
}

// SetDefaults_StatefulSet fills in what OpenKruise defaults for an Advanced StatefulSet.
func SetDefaults_StatefulSet(obj *StatefulSet) {
	if obj.Spec.PodManagementPolicy == "" {
		obj.Spec.PodManagementPolicy = appsv1.OrderedReadyPodManagement
	}
	s := &obj.Spec.UpdateStrategy
	if s.Type == "" {
		s.Type = appsv1.RollingUpdateStatefulSetStrategyType
	}
	if s.Type == appsv1.RollingUpdateStatefulSetStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &RollingUpdateStatefulSetStrategy{}
		}
		ru := s.RollingUpdate
		if ru.Partition == nil {
			ru.Partition = ptr.To[int32](0)
		}
		if ru.MaxUnavailable == nil {
			ru.MaxUnavailable = ptr.To(intstr.FromInt32(1))
		}
		if ru.PodUpdatePolicy == "" {
			ru.PodUpdatePolicy = RecreatePodUpdateStrategyType
		}
		if ru.MinReadySeconds == nil {
			ru.MinReadySeconds = ptr.To[int32](0)
		}
	}
	if obj.Spec.Replicas == nil {
		obj.Spec.Replicas = ptr.To[int32](1)
	}
	if obj.Spec.RevisionHistoryLimit == nil {
		obj.Spec.RevisionHistoryLimit = ptr.To[int32](10)
	}
	if obj.Spec.PersistentVolumeClaimRetentionPolicy == nil {
		obj.Spec.PersistentVolumeClaimRetentionPolicy = &StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	p := obj.Spec.PersistentVolumeClaimRetentionPolicy
	if p.WhenDeleted == "" {
		p.WhenDeleted = RetainPersistentVolumeClaimRetentionPolicyType
	}
	if p.WhenScaled == "" {
		p.WhenScaled = RetainPersistentVolumeClaimRetentionPolicyType
	}
	defaulting.PodTemplate(&obj.Spec.Template)
	defaulting.ClaimTemplates(obj.Spec.VolumeClaimTemplates)
}

// SetDefaults_DaemonSet fills in what OpenKruise defaults for an Advanced DaemonSet.
func SetDefaults_DaemonSet(obj *DaemonSet) {
	if obj.Spec.BurstReplicas == nil {
		obj.Spec.BurstReplicas = ptr.To(intstr.FromInt32(250))
	}
	if obj.Spec.RevisionHistoryLimit == nil {
		obj.Spec.RevisionHistoryLimit = ptr.To[int32](10)
	}
	defaulting.PodTemplate(&obj.Spec.Template)

	s := &obj.Spec.UpdateStrategy
	if s.Type == "" {
		s.Type = RollingUpdateDaemonSetStrategyType
	}
	if s.Type != RollingUpdateDaemonSetStrategyType {
		return
	}
	if s.RollingUpdate == nil {
		s.RollingUpdate = &RollingUpdateDaemonSet{}
	}
	ru := s.RollingUpdate
	// Surging is an old name for a surging Standard update: it gets surge defaults
	// and is stored as Standard.
	if ru.Type == DeprecatedSurgingRollingUpdateType {
		if ru.MaxSurge == nil {
			ru.MaxSurge = ptr.To(intstr.FromInt32(1))
		}
		if ru.MaxUnavailable == nil {
			ru.MaxUnavailable = ptr.To(intstr.FromInt32(0))
		}
	}
	if ru.Type == "" || ru.Type == DeprecatedSurgingRollingUpdateType {
		ru.Type = StandardRollingUpdateType
	}
	// Only when neither is set are both defaulted: if one is set, the other stays
	// unset and counts as 0, as OpenKruise stores it.
	if ru.MaxUnavailable == nil && ru.MaxSurge == nil {
		ru.MaxUnavailable = ptr.To(intstr.FromInt32(1))
		ru.MaxSurge = ptr.To(intstr.FromInt32(0))
	}
	if ru.Partition == nil {
		ru.Partition = ptr.To[int32](0)
	}
}
