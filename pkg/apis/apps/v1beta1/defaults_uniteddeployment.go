package v1beta1

import (
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"
)

// SetDefaults_UnitedDeployment fills in what OpenKruise's webhook defaults for a
// UnitedDeployment: 1 replica, 10 revisions kept, the Manual update strategy with an
// empty manualUpdate, and kube's pod (and claim) defaults in the workload template.
// The workload itself is defaulted by its own kind when the controller creates it.
func SetDefaults_UnitedDeployment(obj *UnitedDeployment) {
	if obj.Spec.Replicas == nil {
		obj.Spec.Replicas = ptr.To[int32](1)
	}
	if obj.Spec.RevisionHistoryLimit == nil {
		obj.Spec.RevisionHistoryLimit = ptr.To[int32](10)
	}
	if obj.Spec.UpdateStrategy.Type == "" {
		obj.Spec.UpdateStrategy.Type = ManualUpdateStrategyType
	}
	if obj.Spec.UpdateStrategy.Type == ManualUpdateStrategyType && obj.Spec.UpdateStrategy.ManualUpdate == nil {
		obj.Spec.UpdateStrategy.ManualUpdate = &ManualUpdate{}
	}
	t := &obj.Spec.Template
	if t.StatefulSetTemplate != nil {
		defaulting.PodTemplate(&t.StatefulSetTemplate.Spec.Template)
		defaulting.ClaimTemplates(t.StatefulSetTemplate.Spec.VolumeClaimTemplates)
	}
	if t.AdvancedStatefulSetTemplate != nil {
		defaulting.PodTemplate(&t.AdvancedStatefulSetTemplate.Spec.Template)
		defaulting.ClaimTemplates(t.AdvancedStatefulSetTemplate.Spec.VolumeClaimTemplates)
	}
	if t.CloneSetTemplate != nil {
		defaulting.PodTemplate(&t.CloneSetTemplate.Spec.Template)
		defaulting.ClaimTemplates(t.CloneSetTemplate.Spec.VolumeClaimTemplates)
	}
	if t.DeploymentTemplate != nil {
		defaulting.PodTemplate(&t.DeploymentTemplate.Spec.Template)
	}
}
