// Package advancedcronjob describes advancedcronjobs.apps.kruise.io: names,
// accessors, validation and printed columns. It runs no pods itself (its runs do),
// so it has no scale, rollback or deletion protection.
package advancedcronjob

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// Kind describes advancedcronjobs.apps.kruise.io (`kubectl get acj`). Like kube's
// CronJob it is in the `all` category, and in `kruise` with every Kruise kind.
var Kind = resource.Kind[*apps.AdvancedCronJob, apps.AdvancedCronJobSpec, apps.AdvancedCronJobStatus]{
	Group:      apps.GroupName,
	Versions:   []string{"v1beta1", "v1alpha1"},
	Plural:     "advancedcronjobs",
	Singular:   "advancedcronjob",
	ShortNames: []string{"acj"},
	Categories: []string{"kruise"},
	New:        func() *apps.AdvancedCronJob { return &apps.AdvancedCronJob{} },
	NewList:    func() runtime.Object { return &apps.AdvancedCronJobList{} },
	Spec:       func(j *apps.AdvancedCronJob) *apps.AdvancedCronJobSpec { return &j.Spec },
	Status:     func(j *apps.AdvancedCronJob) *apps.AdvancedCronJobStatus { return &j.Status },
	// The pod templates of the runs get kube's warnings when the runs are created;
	// their fields of disabled kube features are dropped here (before the generation
	// is decided), as kube's CronJob does.
	PodTemplate:          runTemplate,
	Validate:             validation.ValidateAdvancedCronJob,
	ValidateUpdate:       validation.ValidateAdvancedCronJobUpdate,
	ValidateStatusUpdate: validation.ValidateAdvancedCronJobStatusUpdate,
	// Both versions have the hub's shape: no ErrorPaths needed.
	Table: TableConvertor,
}

// runTemplate is the pod template of the Job or BroadcastJob template, if one is set.
func runTemplate(j *apps.AdvancedCronJob) *corev1.PodTemplateSpec {
	switch t := &j.Spec.Template; {
	case t.JobTemplate != nil:
		return &t.JobTemplate.Spec.Template
	case t.BroadcastJobTemplate != nil:
		return &t.BroadcastJobTemplate.Spec.Template
	}
	return nil
}
