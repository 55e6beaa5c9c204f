package v1alpha1

import (
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// Pull defaults OpenKruise documents for image pulls: the markers on PullPolicy say
// the same numbers; NodeImage tags (map values, which markers cannot reach) and the
// ImagePullJob controller use these.
const (
	DefaultImagePullTimeoutSeconds       = apps.DefaultImagePullTimeoutSeconds
	DefaultImagePullBackoffLimit   int32 = 3
)

// SetDefaults_NodeImage gives every tag a bounded pull. Tags sit in map values, which
// defaulter-gen's markers do not reach, so this is written out. ImagePullJob,
// ImageListPullJob and ContainerRecreateRequest defaults are all markers.
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
