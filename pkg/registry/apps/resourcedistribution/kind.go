// Package resourcedistribution describes resourcedistributions.apps.kruise.io
// (cluster-scoped, `kubectl get distributor`): names, accessors, validation, printed
// columns, and the distributor the server records (distributor.go). It has neither
// scale nor rollback. The in-process deletion
// protection acts on it as on every served kind: Always refuses the delete; Cascading
// has no pods to count (deleting it deletes its copies, through the garbage collector).
package resourcedistribution

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes resourcedistributions. Both versions have the hub's shape: no
// ErrorPaths needed.
var Kind = resource.Kind[*apps.ResourceDistribution, apps.ResourceDistributionSpec, apps.ResourceDistributionStatus]{
	Group:                apps.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "resourcedistributions",
	Singular:             "resourcedistribution",
	ShortNames:           []string{"distributor"},
	Categories:           []string{"kruise"},
	ClusterScoped:        true,
	New:                  func() *apps.ResourceDistribution { return &apps.ResourceDistribution{} },
	NewList:              func() runtime.Object { return &apps.ResourceDistributionList{} },
	Spec:                 func(o *apps.ResourceDistribution) *apps.ResourceDistributionSpec { return &o.Spec },
	Status:               func(o *apps.ResourceDistribution) *apps.ResourceDistributionStatus { return &o.Status },
	Validate:             validation.ValidateResourceDistribution,
	ValidateUpdate:       validation.ValidateResourceDistributionUpdate,
	ValidateStatusUpdate: validation.ValidateResourceDistributionStatusUpdate,
	Warnings:             validation.ResourceDistributionWarnings,
	PrepareForCreate:     recordDistributorOnCreate,
	PrepareForUpdate:     recordDistributorOnUpdate,
	Table:                TableConvertor,
}

func rd(obj runtime.Object) *apps.ResourceDistribution { return obj.(*apps.ResourceDistribution) }

// TableConvertor prints OpenKruise's columns: NAME TOTAL SUCCEED FAILED. OpenKruise's
// CRD declares no AGE column for this kind, so none is printed here either.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("TOTAL", "The desired number of desired distribution and syncs.", func(o runtime.Object) int32 { return rd(o).Status.Desired }),
	table.Int32("SUCCEED", "The number of successful distribution and syncs.", func(o runtime.Object) int32 { return rd(o).Status.Succeeded }),
	table.Int32("FAILED", "The number of failed distributions and syncs.", func(o runtime.Object) int32 { return rd(o).Status.Failed }),
}}
