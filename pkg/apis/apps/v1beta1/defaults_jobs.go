package v1beta1

import (
	"math"

	"k8s.io/apimachinery/pkg/util/intstr"

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
