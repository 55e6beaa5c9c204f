package v1beta1

import (
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// Pull defaults OpenKruise documents for image pulls (the same in both versions).
const (
	DefaultImagePullTimeoutSeconds = v1alpha1.DefaultImagePullTimeoutSeconds
	DefaultImagePullBackoffLimit   = v1alpha1.DefaultImagePullBackoffLimit
)

// SetDefaults_NodeImage gives every tag a bounded pull.
func SetDefaults_NodeImage(obj *NodeImage) {
	for name, img := range obj.Spec.Images {
		for i := range img.Tags {
			t := &img.Tags[i]
			if t.PullPolicy == nil {
				t.PullPolicy = &ImageTagPullPolicy{}
			}
			if t.PullPolicy.TimeoutSeconds == nil {
				t.PullPolicy.TimeoutSeconds = ptr.To(DefaultImagePullTimeoutSeconds)
			}
			if t.PullPolicy.BackoffLimit == nil {
				t.PullPolicy.BackoffLimit = ptr.To(DefaultImagePullBackoffLimit)
			}
			if t.ImagePullPolicy == "" {
				t.ImagePullPolicy = PullIfNotPresent
			}
		}
		obj.Spec.Images[name] = img
	}
}

// SetDefaults_ImagePullJob fills in OpenKruise's defaults for a job.
func SetDefaults_ImagePullJob(obj *ImagePullJob) {
	setDefaultsImagePullJobTemplate(&obj.Spec.ImagePullJobTemplate)
}

// SetDefaults_ImageListPullJob fills in the same defaults as for an ImagePullJob.
func SetDefaults_ImageListPullJob(obj *ImageListPullJob) {
	setDefaultsImagePullJobTemplate(&obj.Spec.ImagePullJobTemplate)
}

func setDefaultsImagePullJobTemplate(t *ImagePullJobTemplate) {
	if t.CompletionPolicy.Type == "" {
		t.CompletionPolicy.Type = Always
	}
	if t.PullPolicy == nil {
		t.PullPolicy = &PullPolicy{}
	}
	if t.PullPolicy.TimeoutSeconds == nil {
		t.PullPolicy.TimeoutSeconds = ptr.To(DefaultImagePullTimeoutSeconds)
	}
	if t.PullPolicy.BackoffLimit == nil {
		t.PullPolicy.BackoffLimit = ptr.To(DefaultImagePullBackoffLimit)
	}
	if t.Parallelism == nil {
		t.Parallelism = ptr.To(intstr.FromInt32(1))
	}
	if t.ImagePullPolicy == "" {
		t.ImagePullPolicy = PullIfNotPresent
	}
}

// SetDefaults_ContainerRecreateRequest: a request without a strategy fails on the first
// container that cannot be recreated. The pod-dependent defaults (grace period, preStop,
// labels) are filled in by the ContainerRecreateRequest admission plugin.
func SetDefaults_ContainerRecreateRequest(obj *ContainerRecreateRequest) {
	if obj.Spec.Strategy == nil {
		obj.Spec.Strategy = &ContainerRecreateRequestStrategy{}
	}
	if obj.Spec.Strategy.FailurePolicy == "" {
		obj.Spec.Strategy.FailurePolicy = ContainerRecreateRequestFailurePolicyFail
	}
}
