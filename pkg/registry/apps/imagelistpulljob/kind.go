// Package imagelistpulljob describes imagelistpulljobs.apps.kruise.io: names, accessors, validation and printed columns.
package imagelistpulljob

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes imagelistpulljobs.
var Kind = resource.Kind[*apps.ImageListPullJob, apps.ImageListPullJobSpec, apps.ImageListPullJobStatus]{
	Group:                apps.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "imagelistpulljobs",
	Singular:             "imagelistpulljob",
	Categories:           []string{"kruise"},
	New:                  func() *apps.ImageListPullJob { return &apps.ImageListPullJob{} },
	NewList:              func() runtime.Object { return &apps.ImageListPullJobList{} },
	Spec:                 func(o *apps.ImageListPullJob) *apps.ImageListPullJobSpec { return &o.Spec },
	Status:               func(o *apps.ImageListPullJob) *apps.ImageListPullJobStatus { return &o.Status },
	Validate:             validation.ValidateImageListPullJob,
	ValidateUpdate:       validation.ValidateImageListPullJobUpdate,
	ValidateStatusUpdate: validation.ValidateImageListPullJobStatusUpdate,
	Table:                TableConvertor,
}

func job(obj runtime.Object) *apps.ImageListPullJob { return obj.(*apps.ImageListPullJob) }

// TableConvertor prints OpenKruise's ImageListPullJob columns: TOTAL SUCCEEDED COMPLETED AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("TOTAL", "Number of image pull job", func(o runtime.Object) int32 { return job(o).Status.Desired }),
	table.Int32("SUCCEEDED", "Number of image pull job succeeded", func(o runtime.Object) int32 { return job(o).Status.Succeeded }),
	table.Int32("COMPLETED", "Number of ImagePullJobs which are finished", func(o runtime.Object) int32 { return job(o).Status.Completed }),
	table.Age,
}}
