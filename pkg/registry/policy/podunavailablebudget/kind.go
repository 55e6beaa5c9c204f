// Package podunavailablebudget describes podunavailablebudgets.policy.kruise.io:
// names, accessors, validation and printed columns. It has no scale or rollback and
// runs no pods of its own, so deletion protection does not count it.
package podunavailablebudget

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/policy"
	"github.com/kruise-native/kruise-native/pkg/apis/policy/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes podunavailablebudgets (`kubectl get pub`). Both versions have the
// hub's shape: no ErrorPaths needed.
var Kind = resource.Kind[*policy.PodUnavailableBudget, policy.PodUnavailableBudgetSpec, policy.PodUnavailableBudgetStatus]{
	Group:                policy.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "podunavailablebudgets",
	Singular:             "podunavailablebudget",
	ShortNames:           []string{"pub"},
	Categories:           []string{"kruise"},
	New:                  func() *policy.PodUnavailableBudget { return &policy.PodUnavailableBudget{} },
	NewList:              func() runtime.Object { return &policy.PodUnavailableBudgetList{} },
	Spec:                 func(o *policy.PodUnavailableBudget) *policy.PodUnavailableBudgetSpec { return &o.Spec },
	Status:               func(o *policy.PodUnavailableBudget) *policy.PodUnavailableBudgetStatus { return &o.Status },
	Validate:             validation.ValidatePodUnavailableBudget,
	ValidateUpdate:       validation.ValidatePodUnavailableBudgetUpdate,
	ValidateStatusUpdate: validation.ValidatePodUnavailableBudgetStatusUpdate,
	Table:                TableConvertor,
}

func pub(obj runtime.Object) *policy.PodUnavailableBudget { return obj.(*policy.PodUnavailableBudget) }

// TableConvertor prints OpenKruise's PodUnavailableBudget columns: ALLOWED CURRENT DESIRED TOTAL AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("Allowed", "UnavailableAllowed number of pod unavailable that are currently allowed", func(o runtime.Object) int32 { return pub(o).Status.UnavailableAllowed }),
	table.Int32("Current", "CurrentAvailable current number of available pods", func(o runtime.Object) int32 { return pub(o).Status.CurrentAvailable }),
	table.Int32("Desired", "DesiredAvailable minimum desired number of available pods", func(o runtime.Object) int32 { return pub(o).Status.DesiredAvailable }),
	table.Int32("Total", "TotalReplicas total number of pods counted by this budget", func(o runtime.Object) int32 { return pub(o).Status.TotalReplicas }),
	table.Age,
}}
