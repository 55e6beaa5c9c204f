package v1alpha1

import (
	"github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"
)

// SetDefaults_UnitedDeployment: the Manual update strategy comes with an empty
// manualUpdate (a default that depends on the type, so not a marker); 1 replica and 10
// revisions kept are markers.
func SetDefaults_UnitedDeployment(obj *UnitedDeployment) {
	if obj.Spec.UpdateStrategy.Type == "" {
		obj.Spec.UpdateStrategy.Type = ManualUpdateStrategyType
	}
	if obj.Spec.UpdateStrategy.Type == ManualUpdateStrategyType && obj.Spec.UpdateStrategy.ManualUpdate == nil {
		obj.Spec.UpdateStrategy.ManualUpdate = &ManualUpdate{}
	}
}

// The workload templates of a UnitedDeployment get kube's pod (and claim) defaults
// only: the workload itself is defaulted by its own kind when the controller creates
// it, so the markers of CloneSet and Advanced StatefulSet must not apply here (the
// defaulters cover their templates).

// SetDefaults_StatefulSetTemplateSpec defaults a kube StatefulSet subset template.
//
// +k8s:defaulter-gen=covers
func SetDefaults_StatefulSetTemplateSpec(t *StatefulSetTemplateSpec) {
	defaulting.PodTemplate(&t.Spec.Template)
	defaulting.ClaimTemplates(t.Spec.VolumeClaimTemplates)
}

// SetDefaults_AdvancedStatefulSetTemplateSpec defaults an Advanced StatefulSet subset template.
//
// +k8s:defaulter-gen=covers
func SetDefaults_AdvancedStatefulSetTemplateSpec(t *AdvancedStatefulSetTemplateSpec) {
	defaulting.PodTemplate(&t.Spec.Template)
	defaulting.ClaimTemplates(t.Spec.VolumeClaimTemplates)
}

// SetDefaults_CloneSetTemplateSpec defaults a CloneSet subset template.
//
// +k8s:defaulter-gen=covers
func SetDefaults_CloneSetTemplateSpec(t *CloneSetTemplateSpec) {
	defaulting.PodTemplate(&t.Spec.Template)
	defaulting.ClaimTemplates(t.Spec.VolumeClaimTemplates)
}

// SetDefaults_DeploymentTemplateSpec defaults a kube Deployment subset template.
//
// +k8s:defaulter-gen=covers
func SetDefaults_DeploymentTemplateSpec(t *DeploymentTemplateSpec) {
	defaulting.PodTemplate(&t.Spec.Template)
}
