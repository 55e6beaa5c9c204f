// Package sidecarset holds what is particular to SidecarSets in the registry: how the
// shared strategies reach their fields, the warnings, and the printed columns.
package sidecarset

import (
	"context"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
	"github.com/kruise-native/kruise-native/pkg/registry/workload"
)

var kind = workload.Kind[*apps.SidecarSet]{
	ClusterScoped:        true,
	ResetStatus:          func(ss *apps.SidecarSet) { ss.Status = apps.SidecarSetStatus{} },
	KeepStatus:           func(ss, old *apps.SidecarSet) { ss.Status = old.Status },
	KeepSpec:             func(ss, old *apps.SidecarSet) { ss.Spec = old.Spec },
	SpecChanged:          func(ss, old *apps.SidecarSet) bool { return !apiequality.Semantic.DeepEqual(ss.Spec, old.Spec) },
	Validate:             validation.ValidateSidecarSet,
	ValidateUpdate:       validation.ValidateSidecarSetUpdate,
	ValidateStatusUpdate: validation.ValidateSidecarSetStatusUpdate,
}

// strategy is the shared workload strategy plus SidecarSet warnings.
type strategy struct {
	workload.Strategy
}

// NewStrategy returns the strategy of the main sidecarsets endpoint.
func NewStrategy(typer runtime.ObjectTyper) workload.Strategy {
	return strategy{workload.NewStrategy(typer, kind)}
}

func (strategy) WarningsOnCreate(_ context.Context, obj runtime.Object) []string {
	return validation.SidecarSetWarnings(obj.(*apps.SidecarSet))
}

// WarningsOnUpdate repeats the warnings only when the spec changed.
func (strategy) WarningsOnUpdate(_ context.Context, obj, old runtime.Object) []string {
	ss := obj.(*apps.SidecarSet)
	if ss.Generation == old.(*apps.SidecarSet).Generation {
		return nil
	}
	return validation.SidecarSetWarnings(ss)
}

// NewStatusStrategy returns the strategy of sidecarsets/status.
func NewStatusStrategy(typer runtime.ObjectTyper) workload.StatusStrategy {
	return workload.NewStatusStrategy(typer, kind)
}

func ss(obj runtime.Object) *apps.SidecarSet { return obj.(*apps.SidecarSet) }

// TableConvertor prints OpenKruise's SidecarSet columns: MATCHED UPDATED READY AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("MATCHED", "The number of pods matched.", func(o runtime.Object) int32 { return ss(o).Status.MatchedPods }),
	table.Int32("UPDATED", "The number of pods matched and updated.", func(o runtime.Object) int32 { return ss(o).Status.UpdatedPods }),
	table.Int32("READY", "The number of pods matched and ready.", func(o runtime.Object) int32 { return ss(o).Status.ReadyPods }),
	table.Age,
}}
