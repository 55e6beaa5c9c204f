// Package ephemeraljob describes ephemeraljobs.apps.kruise.io (namespaced, v1beta1
// preferred and v1alpha1, as in OpenKruise master): names, accessors, validation and
// printed columns. It has neither scale nor rollback, and no deletion protection
// (OpenKruise protects long-running workloads, not jobs).
package ephemeraljob

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes ephemeraljobs (`kubectl get ejob`).
var Kind = resource.Kind[*apps.EphemeralJob, apps.EphemeralJobSpec, apps.EphemeralJobStatus]{
	Group:                apps.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "ephemeraljobs",
	Singular:             "ephemeraljob",
	ShortNames:           []string{"ejob"},
	Categories:           []string{"kruise"},
	New:                  func() *apps.EphemeralJob { return &apps.EphemeralJob{} },
	NewList:              func() runtime.Object { return &apps.EphemeralJobList{} },
	Spec:                 func(o *apps.EphemeralJob) *apps.EphemeralJobSpec { return &o.Spec },
	Status:               func(o *apps.EphemeralJob) *apps.EphemeralJobStatus { return &o.Status },
	Validate:             validation.ValidateEphemeralJob,
	ValidateUpdate:       validation.ValidateEphemeralJobUpdate,
	ValidateStatusUpdate: validation.ValidateEphemeralJobStatusUpdate,
	Table:                TableConvertor,
}

func job(obj runtime.Object) *apps.EphemeralJob { return obj.(*apps.EphemeralJob) }

// TableConvertor prints OpenKruise's EphemeralJob columns: STATUS MATCH SUCCEED FAILED
// RUNNING WAITING AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.String("Status", "The status of ephemeral job.", func(o runtime.Object) string { return string(job(o).Status.Phase) }),
	table.Int32("Match", "Number of ephemeral container matched by this job.", func(o runtime.Object) int32 { return job(o).Status.Matches }),
	table.Int32("Succeed", "Number of succeed ephemeral containers.", func(o runtime.Object) int32 { return job(o).Status.Succeeded }),
	table.Int32("Failed", "Number of failed ephemeral containers.", func(o runtime.Object) int32 { return job(o).Status.Failed }),
	table.Int32("Running", "Number of running ephemeral containers.", func(o runtime.Object) int32 { return job(o).Status.Running }),
	table.Int32("Waiting", "Number of waiting ephemeral containers.", func(o runtime.Object) int32 { return job(o).Status.Waiting }),
	table.Age,
}}
