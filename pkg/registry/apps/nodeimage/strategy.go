// Package nodeimage holds what is particular to NodeImages in the registry: how the
// shared strategies reach their fields, and the printed columns.
package nodeimage

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

var kind = workload.Kind[*apps.NodeImage]{
	ClusterScoped:        true,
	ResetStatus:          func(ni *apps.NodeImage) { ni.Status = apps.NodeImageStatus{} },
	KeepStatus:           func(ni, old *apps.NodeImage) { ni.Status = old.Status },
	KeepSpec:             func(ni, old *apps.NodeImage) { ni.Spec = old.Spec },
	SpecChanged:          func(ni, old *apps.NodeImage) bool { return !apiequality.Semantic.DeepEqual(ni.Spec, old.Spec) },
	Validate:             validation.ValidateNodeImage,
	ValidateUpdate:       validation.ValidateNodeImageUpdate,
	ValidateStatusUpdate: validation.ValidateNodeImageStatusUpdate,
}

// NewStrategy returns the strategy of the main nodeimages endpoint.
func NewStrategy(typer runtime.ObjectTyper) workload.Strategy {
	return workload.NewStrategy(typer, kind)
}

// NewStatusStrategy returns the strategy of nodeimages/status.
func NewStatusStrategy(typer runtime.ObjectTyper) workload.StatusStrategy {
	return workload.NewStatusStrategy(typer, kind)
}

func ni(obj runtime.Object) *apps.NodeImage { return obj.(*apps.NodeImage) }

// TableConvertor prints OpenKruise's NodeImage columns: DESIRED PULLING SUCCEED FAILED AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("DESIRED", "Number of all images on this node", func(o runtime.Object) int32 { return ni(o).Status.Desired }),
	table.Int32("PULLING", "Number of image pull task active", func(o runtime.Object) int32 { return ni(o).Status.Pulling }),
	table.Int32("SUCCEED", "Number of image pull task succeeded", func(o runtime.Object) int32 { return ni(o).Status.Succeeded }),
	table.Int32("FAILED", "Number of image pull tasks failed", func(o runtime.Object) int32 { return ni(o).Status.Failed }),
	table.Age,
}}
