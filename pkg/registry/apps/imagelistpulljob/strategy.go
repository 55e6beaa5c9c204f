// Package imagelistpulljob holds what is particular to ImageListPullJobs in the
// registry: how the shared strategies reach their fields, and the printed columns.
package imagelistpulljob

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

var kind = workload.Kind[*apps.ImageListPullJob]{
	ResetStatus:          func(j *apps.ImageListPullJob) { j.Status = apps.ImageListPullJobStatus{} },
	KeepStatus:           func(j, old *apps.ImageListPullJob) { j.Status = old.Status },
	KeepSpec:             func(j, old *apps.ImageListPullJob) { j.Spec = old.Spec },
	SpecChanged:          func(j, old *apps.ImageListPullJob) bool { return !apiequality.Semantic.DeepEqual(j.Spec, old.Spec) },
	Validate:             validation.ValidateImageListPullJob,
	ValidateUpdate:       validation.ValidateImageListPullJobUpdate,
	ValidateStatusUpdate: validation.ValidateImageListPullJobStatusUpdate,
}

// NewStrategy returns the strategy of the main imagelistpulljobs endpoint.
func NewStrategy(typer runtime.ObjectTyper) workload.Strategy {
	return workload.NewStrategy(typer, kind)
}

// NewStatusStrategy returns the strategy of imagelistpulljobs/status.
func NewStatusStrategy(typer runtime.ObjectTyper) workload.StatusStrategy {
	return workload.NewStatusStrategy(typer, kind)
}

func job(obj runtime.Object) *apps.ImageListPullJob { return obj.(*apps.ImageListPullJob) }

// TableConvertor prints OpenKruise's ImageListPullJob columns: TOTAL SUCCEEDED COMPLETED AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("TOTAL", "Number of image pull job", func(o runtime.Object) int32 { return job(o).Status.Desired }),
	table.Int32("SUCCEEDED", "Number of image pull job succeeded", func(o runtime.Object) int32 { return job(o).Status.Succeeded }),
	table.Int32("COMPLETED", "Number of ImagePullJobs which are finished", func(o runtime.Object) int32 { return job(o).Status.Completed }),
	table.Age,
}}
