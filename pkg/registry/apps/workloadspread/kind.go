// Package workloadspread describes workloadspreads.apps.kruise.io (`kubectl get ws`):
// names, accessors, validation and printed columns. It has a status subresource,
// written by the pod webhook (slots reserved for new pods) and by the controller
// (counts); neither scale nor rollback.
package workloadspread

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes workloadspreads. Both versions have the hub's shape: no ErrorPaths.
var Kind = resource.Kind[*apps.WorkloadSpread, apps.WorkloadSpreadSpec, apps.WorkloadSpreadStatus]{
	Group:                apps.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "workloadspreads",
	Singular:             "workloadspread",
	ShortNames:           []string{"ws"},
	Categories:           []string{"kruise"},
	New:                  func() *apps.WorkloadSpread { return &apps.WorkloadSpread{} },
	NewList:              func() runtime.Object { return &apps.WorkloadSpreadList{} },
	Spec:                 func(o *apps.WorkloadSpread) *apps.WorkloadSpreadSpec { return &o.Spec },
	Status:               func(o *apps.WorkloadSpread) *apps.WorkloadSpreadStatus { return &o.Status },
	Validate:             validation.ValidateWorkloadSpread,
	ValidateUpdate:       validation.ValidateWorkloadSpreadUpdate,
	ValidateStatusUpdate: validation.ValidateWorkloadSpreadStatusUpdate,
	Table:                TableConvertor,
}

func ws(obj runtime.Object) *apps.WorkloadSpread { return obj.(*apps.WorkloadSpread) }

func target(obj runtime.Object) *apps.TargetReference {
	if r := ws(obj).Spec.TargetReference; r != nil {
		return r
	}
	return &apps.TargetReference{}
}

// TableConvertor prints OpenKruise's columns: NAME WORKLOADNAME KIND ADAPTIVE AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.String("WORKLOADNAME", "The name of the workload whose pods are spread.", func(o runtime.Object) string { return target(o).Name }),
	table.String("KIND", "The kind of the workload whose pods are spread.", func(o runtime.Object) string { return target(o).Kind }),
	table.String("ADAPTIVE", "Whether the schedule strategy is Adaptive.", func(o runtime.Object) string {
		if ws(o).Spec.ScheduleStrategy.Type == apps.AdaptiveWorkloadSpreadScheduleStrategyType {
			return "true"
		}
		return "false"
	}),
	table.Age,
}}
