package v1alpha1

import (
	"math"

	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"
)

// SetDefaults_BroadcastJob fills in what OpenKruise's webhook defaults for a
// BroadcastJob: kube's pod defaults on the template, completion Always, no cap on
// parallelism (MaxInt32, stored as a number) and FailFast.
func SetDefaults_BroadcastJob(obj *BroadcastJob) {
	defaulting.PodTemplate(&obj.Spec.Template)
	if obj.Spec.CompletionPolicy.Type == "" {
		obj.Spec.CompletionPolicy.Type = Always
	}
	if obj.Spec.Parallelism == nil {
		p := intstr.FromInt32(math.MaxInt32)
		obj.Spec.Parallelism = &p
	}
	if obj.Spec.FailurePolicy.Type == "" {
		obj.Spec.FailurePolicy.Type = FailurePolicyTypeFailFast
	}
}

// SetDefaults_AdvancedCronJob fills in what OpenKruise's webhook defaults for an
// AdvancedCronJob: concurrency Allow, not paused, history limits 3 succeeded and 1
// failed, kube's pod defaults on a Job or BroadcastJob template (the BroadcastJob
// template gets no BroadcastJob defaults: the run is defaulted when it is created)
// and completionPolicy Always on an ImageListPullJob template.
func SetDefaults_AdvancedCronJob(obj *AdvancedCronJob) {
	t := &obj.Spec.Template
	if t.JobTemplate != nil {
		defaulting.PodTemplate(&t.JobTemplate.Spec.Template)
	}
	if t.BroadcastJobTemplate != nil {
		defaulting.PodTemplate(&t.BroadcastJobTemplate.Spec.Template)
	}
	if t.ImageListPullJobTemplate != nil && t.ImageListPullJobTemplate.Spec.CompletionPolicy.Type == "" {
		t.ImageListPullJobTemplate.Spec.CompletionPolicy.Type = Always
	}
	if obj.Spec.ConcurrencyPolicy == "" {
		obj.Spec.ConcurrencyPolicy = AllowConcurrent
	}
	if obj.Spec.Paused == nil {
		obj.Spec.Paused = ptr.To(false)
	}
	if obj.Spec.SuccessfulJobsHistoryLimit == nil {
		obj.Spec.SuccessfulJobsHistoryLimit = ptr.To[int32](3)
	}
	if obj.Spec.FailedJobsHistoryLimit == nil {
		obj.Spec.FailedJobsHistoryLimit = ptr.To[int32](1)
	}
}
