// Package broadcastjob describes broadcastjobs.apps.kruise.io: names, accessors,
// validation and printed columns. It has neither scale (one pod per eligible node)
// nor rollback (a job's template is not rolled out), and no deletion protection:
// OpenKruise protects long-running workloads, not jobs.
package broadcastjob

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// Kind describes broadcastjobs.apps.kruise.io (`kubectl get bcj`). Like kube's Job it
// is in the `all` category, and in `kruise` with every Kruise kind.
var Kind = resource.Kind[*apps.BroadcastJob, apps.BroadcastJobSpec, apps.BroadcastJobStatus]{
	Group:      apps.GroupName,
	Versions:   []string{"v1beta1", "v1alpha1"},
	Plural:     "broadcastjobs",
	Singular:   "broadcastjob",
	ShortNames: []string{"bcj"},
	Categories: []string{"kruise"},
	New:        func() *apps.BroadcastJob { return &apps.BroadcastJob{} },
	NewList:    func() runtime.Object { return &apps.BroadcastJobList{} },
	Spec:       func(j *apps.BroadcastJob) *apps.BroadcastJobSpec { return &j.Spec },
	Status:     func(j *apps.BroadcastJob) *apps.BroadcastJobStatus { return &j.Status },
	Templates: func(j *apps.BroadcastJob) (*corev1.PodTemplateSpec, []corev1.PersistentVolumeClaim) {
		return &j.Spec.Template, nil
	},
	Validate:             validation.ValidateBroadcastJob,
	ValidateUpdate:       validation.ValidateBroadcastJobUpdate,
	ValidateStatusUpdate: validation.ValidateBroadcastJobStatusUpdate,
	// Both versions have the hub's shape: no ErrorPaths needed.
	Table: TableConvertor,
}
