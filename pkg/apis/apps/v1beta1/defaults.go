package v1beta1

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"
)

// Defaults that hold whatever else the object says are +default= markers on the
// fields of the types (defaulter-gen applies them after the functions here; they are
// also the defaults the OpenAPI schema shows). The SetDefaults_ functions hold only
// what a marker cannot say: kube's own pod and claim template defaults, defaults that
// depend on the value of another field (an update strategy's type), and the templates
// embedded in another kind, which get only kube's pod defaults (their defaulters cover
// them, so the markers of the embedded kind do not apply there).
func addDefaultingFuncs(scheme *runtime.Scheme) error {
	return RegisterDefaults(scheme)
}

// SetDefaults_CloneSet fills in what OpenKruise defaults for a v1beta1 CloneSet.
func SetDefaults_CloneSet(obj *CloneSet) {
	defaulting.PodTemplate(&obj.Spec.Template)
	defaulting.ClaimTemplates(obj.Spec.VolumeClaimTemplates)

	s := &obj.Spec.UpdateStrategy
	if s.Type == "" {
		s.Type = RollingUpdateCloneSetUpdateStrategyType
	}
	if s.Type == RollingUpdateCloneSetUpdateStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &RollingUpdateCloneSetStrategy{}
		}
		ru := s.RollingUpdate
		if ru.PodUpdatePolicy == "" {
			ru.PodUpdatePolicy = RecreateCloneSetPodUpdateStrategyType
		}
		if ru.Partition == nil {
			ru.Partition = ptr.To(intstr.FromInt32(0))
		}
		if ru.MaxUnavailable == nil {
			ru.MaxUnavailable = ptr.To(intstr.FromString("20%"))
		}
		if ru.MaxSurge == nil {
			ru.MaxSurge = ptr.To(intstr.FromInt32(0))
		}
	}
}

// SetDefaults_StatefulSet fills in what OpenKruise defaults for an Advanced StatefulSet.
func SetDefaults_StatefulSet(obj *StatefulSet) {
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
	defaulting.PodTemplate(&obj.Spec.Template)
	defaulting.ClaimTemplates(obj.Spec.VolumeClaimTemplates)
}

// SetDefaults_DaemonSet fills in what OpenKruise defaults for an Advanced DaemonSet.
func SetDefaults_DaemonSet(obj *DaemonSet) {
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

// SetDefaults_PodProbeMarker gives every probe kube's probe defaults, as OpenKruise's
// webhook does.
func SetDefaults_PodProbeMarker(obj *PodProbeMarker) {
	for i := range obj.Spec.Probes {
		defaulting.Probe(&obj.Spec.Probes[i].Probe.Probe)
	}
}

// SetDefaults_NodePodProbe gives every probe kube's probe defaults (the controller
// copies them already defaulted; a NodePodProbe written by hand reads back the same).
func SetDefaults_NodePodProbe(obj *NodePodProbe) {
	for i := range obj.Spec.PodProbes {
		for j := range obj.Spec.PodProbes[i].Probes {
			defaulting.Probe(&obj.Spec.PodProbes[i].Probes[j].Probe.Probe)
		}
	}
}
