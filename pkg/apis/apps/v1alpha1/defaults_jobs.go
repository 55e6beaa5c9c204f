package v1alpha1

import (
	"github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"
)

// SetDefaults_BroadcastJob gives the pod template kube's pod defaults; completion
// Always, no cap on parallelism (MaxInt32, stored as a number) and FailFast are markers.
func SetDefaults_BroadcastJob(obj *BroadcastJob) {
	defaulting.PodTemplate(&obj.Spec.Template)
}

// SetDefaults_AdvancedCronJob gives a Job template kube's pod defaults (a kube type:
// its defaulter is here, not on the type, as v1alpha1 and v1beta1 share it). Concurrency
// Allow, not paused and history limits 3 and 1 are markers.
func SetDefaults_AdvancedCronJob(obj *AdvancedCronJob) {
	if t := obj.Spec.Template.JobTemplate; t != nil {
		defaulting.PodTemplate(&t.Spec.Template)
	}
}

// SetDefaults_BroadcastJobTemplateSpec gives an AdvancedCronJob's BroadcastJob
// template kube's pod defaults and nothing else: the run is defaulted as a BroadcastJob
// when it is created, so its markers must not apply here.
//
// +k8s:defaulter-gen=covers
func SetDefaults_BroadcastJobTemplateSpec(t *BroadcastJobTemplateSpec) {
	defaulting.PodTemplate(&t.Spec.Template)
}

// SetDefaults_ImageListPullJobTemplateSpec gives an AdvancedCronJob's ImageListPullJob
// template completionPolicy Always and nothing else (as OpenKruise's webhook does); the
// pull defaults come when the run is created.
//
// +k8s:defaulter-gen=covers
func SetDefaults_ImageListPullJobTemplateSpec(t *ImageListPullJobTemplateSpec) {
	if t.Spec.CompletionPolicy.Type == "" {
		t.Spec.CompletionPolicy.Type = Always
	}
}
