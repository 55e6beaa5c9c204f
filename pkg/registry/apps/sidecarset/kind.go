// Package sidecarset describes sidecarsets.apps.kruise.io (cluster-scoped; OpenKruise gives it no short name): names, accessors, validation and printed columns.
package sidecarset

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes sidecarsets.
var Kind = resource.Kind[*apps.SidecarSet, apps.SidecarSetSpec, apps.SidecarSetStatus]{
	Group:                apps.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "sidecarsets",
	Singular:             "sidecarset",
	Categories:           []string{"kruise"},
	ClusterScoped:        true,
	New:                  func() *apps.SidecarSet { return &apps.SidecarSet{} },
	NewList:              func() runtime.Object { return &apps.SidecarSetList{} },
	Spec:                 func(o *apps.SidecarSet) *apps.SidecarSetSpec { return &o.Spec },
	Status:               func(o *apps.SidecarSet) *apps.SidecarSetStatus { return &o.Status },
	Validate:             validation.ValidateSidecarSet,
	ValidateUpdate:       validation.ValidateSidecarSetUpdate,
	ValidateStatusUpdate: validation.ValidateSidecarSetStatusUpdate,
	Warnings:             validation.SidecarSetWarnings,
	Table:                TableConvertor,
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
