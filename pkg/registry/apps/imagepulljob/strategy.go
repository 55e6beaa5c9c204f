// Package imagepulljob holds what is particular to ImagePullJobs in the registry: how
// the shared strategies reach their fields, and the printed columns.
package imagepulljob

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

var kind = workload.Kind[*apps.ImagePullJob]{
	ResetStatus:          func(j *apps.ImagePullJob) { j.Status = apps.ImagePullJobStatus{} },
	KeepStatus:           func(j, old *apps.ImagePullJob) { j.Status = old.Status },
	KeepSpec:             func(j, old *apps.ImagePullJob) { j.Spec = old.Spec },
	SpecChanged:          func(j, old *apps.ImagePullJob) bool { return !apiequality.Semantic.DeepEqual(j.Spec, old.Spec) },
	Validate:             validation.ValidateImagePullJob,
	ValidateUpdate:       validation.ValidateImagePullJobUpdate,
	ValidateStatusUpdate: validation.ValidateImagePullJobStatusUpdate,
}

// NewStrategy returns the strategy of the main imagepulljobs endpoint.
func NewStrategy(typer runtime.ObjectTyper) workload.Strategy {
	return workload.NewStrategy(typer, kind)
}

// NewStatusStrategy returns the strategy of imagepulljobs/status.
func NewStatusStrategy(typer runtime.ObjectTyper) workload.StatusStrategy {
	return workload.NewStatusStrategy(typer, kind)
}

func job(obj runtime.Object) *apps.ImagePullJob { return obj.(*apps.ImagePullJob) }

// TableConvertor prints OpenKruise's ImagePullJob columns: TOTAL ACTIVE SUCCEED FAILED AGE MESSAGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("TOTAL", "Number of all nodes matched by this job", func(o runtime.Object) int32 { return job(o).Status.Desired }),
	table.Int32("ACTIVE", "Number of image pull task active", func(o runtime.Object) int32 { return job(o).Status.Active }),
	table.Int32("SUCCEED", "Number of image pull task succeeded", func(o runtime.Object) int32 { return job(o).Status.Succeeded }),
	table.Int32("FAILED", "Number of image pull tasks failed", func(o runtime.Object) int32 { return job(o).Status.Failed }),
	table.Age,
	table.String("MESSAGE", "Summary of status when job is failed", func(o runtime.Object) string { return job(o).Status.Message }),
}}
