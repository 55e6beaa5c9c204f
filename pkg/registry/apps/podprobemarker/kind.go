// Package podprobemarker describes podprobemarkers.apps.kruise.io (namespaced,
// v1beta1 preferred and v1alpha1, as in OpenKruise master): names, accessors,
// validation and printed columns.
package podprobemarker

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes podprobemarkers.
var Kind = resource.Kind[*apps.PodProbeMarker, apps.PodProbeMarkerSpec, apps.PodProbeMarkerStatus]{
	Group:                apps.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "podprobemarkers",
	Singular:             "podprobemarker",
	Categories:           []string{"kruise"},
	New:                  func() *apps.PodProbeMarker { return &apps.PodProbeMarker{} },
	NewList:              func() runtime.Object { return &apps.PodProbeMarkerList{} },
	Spec:                 func(o *apps.PodProbeMarker) *apps.PodProbeMarkerSpec { return &o.Spec },
	Status:               func(o *apps.PodProbeMarker) *apps.PodProbeMarkerStatus { return &o.Status },
	Validate:             validation.ValidatePodProbeMarker,
	ValidateUpdate:       validation.ValidatePodProbeMarkerUpdate,
	ValidateStatusUpdate: validation.ValidatePodProbeMarkerStatusUpdate,
	Table:                TableConvertor,
}

// TableConvertor prints NAME AGE: OpenKruise's CRD declares no columns of its own.
var TableConvertor = table.Convertor{Columns: []table.Column{table.Name, table.Age}}
