// Package nodeimage describes nodeimages.apps.kruise.io (cluster-scoped, one per node): names, accessors, validation and printed columns.
package nodeimage

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes nodeimages.
var Kind = resource.Kind[*apps.NodeImage, apps.NodeImageSpec, apps.NodeImageStatus]{
	Group:                apps.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "nodeimages",
	Singular:             "nodeimage",
	Categories:           []string{"kruise"},
	ClusterScoped:        true,
	New:                  func() *apps.NodeImage { return &apps.NodeImage{} },
	NewList:              func() runtime.Object { return &apps.NodeImageList{} },
	Spec:                 func(o *apps.NodeImage) *apps.NodeImageSpec { return &o.Spec },
	Status:               func(o *apps.NodeImage) *apps.NodeImageStatus { return &o.Status },
	Validate:             validation.ValidateNodeImage,
	ValidateUpdate:       validation.ValidateNodeImageUpdate,
	ValidateStatusUpdate: validation.ValidateNodeImageStatusUpdate,
	Subresources:         pullSecretsSubresource,
	Table:                TableConvertor,
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
