// Package containerrecreaterequest holds what is particular to ContainerRecreateRequests
// in the registry: how the shared strategies reach their fields, and the printed columns.
package containerrecreaterequest

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

var kind = workload.Kind[*apps.ContainerRecreateRequest]{
	ResetStatus: func(c *apps.ContainerRecreateRequest) { c.Status = apps.ContainerRecreateRequestStatus{} },
	KeepStatus:  func(c, old *apps.ContainerRecreateRequest) { c.Status = old.Status },
	KeepSpec:    func(c, old *apps.ContainerRecreateRequest) { c.Spec = old.Spec },
	SpecChanged: func(c, old *apps.ContainerRecreateRequest) bool {
		return !apiequality.Semantic.DeepEqual(c.Spec, old.Spec)
	},
	Validate:             validation.ValidateContainerRecreateRequest,
	ValidateUpdate:       validation.ValidateContainerRecreateRequestUpdate,
	ValidateStatusUpdate: validation.ValidateContainerRecreateRequestStatusUpdate,
}

// NewStrategy returns the strategy of the main containerrecreaterequests endpoint.
func NewStrategy(typer runtime.ObjectTyper) workload.Strategy {
	return workload.NewStrategy(typer, kind)
}

// NewStatusStrategy returns the strategy of containerrecreaterequests/status.
func NewStatusStrategy(typer runtime.ObjectTyper) workload.StatusStrategy {
	return workload.NewStatusStrategy(typer, kind)
}

func crr(obj runtime.Object) *apps.ContainerRecreateRequest {
	return obj.(*apps.ContainerRecreateRequest)
}

// nodeNameLabel is where the admission plugin records the pod's node.
const nodeNameLabel = "crr.apps.kruise.io/node-name"

// TableConvertor prints OpenKruise's ContainerRecreateRequest columns: PHASE POD NODE AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.String("PHASE", "Phase of this ContainerRecreateRequest.", func(o runtime.Object) string { return string(crr(o).Status.Phase) }),
	table.String("POD", "Pod name of this ContainerRecreateRequest.", func(o runtime.Object) string { return crr(o).Spec.PodName }),
	table.String("NODE", "Node name of this ContainerRecreateRequest.", func(o runtime.Object) string { return crr(o).Labels[nodeNameLabel] }),
	table.Age,
}}
