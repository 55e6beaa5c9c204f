// Package imagepulljob describes imagepulljobs.apps.kruise.io: names, accessors, validation and printed columns.
package imagepulljob

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// Kind describes imagepulljobs.
var Kind = resource.Kind[*apps.ImagePullJob, apps.ImagePullJobSpec, apps.ImagePullJobStatus]{
	Group:                apps.GroupName,
	Versions:             []string{"v1beta1", "v1alpha1"},
	Plural:               "imagepulljobs",
	Singular:             "imagepulljob",
	Categories:           []string{"kruise"},
	New:                  func() *apps.ImagePullJob { return &apps.ImagePullJob{} },
	NewList:              func() runtime.Object { return &apps.ImagePullJobList{} },
	Spec:                 func(o *apps.ImagePullJob) *apps.ImagePullJobSpec { return &o.Spec },
	Status:               func(o *apps.ImagePullJob) *apps.ImagePullJobStatus { return &o.Status },
	Validate:             validation.ValidateImagePullJob,
	ValidateUpdate:       validation.ValidateImagePullJobUpdate,
	ValidateStatusUpdate: validation.ValidateImagePullJobStatusUpdate,
	Table:                TableConvertor,
}

func job(obj runtime.Object) *apps.ImagePullJob { return obj.(*apps.ImagePullJob) }

// TableConvertor prints OpenKruise's ImagePullJob columns: TOTAL ACTIVE SUCCEED FAILED AGE MESSAGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("TOTAL", "Number of all nodes matched by this job", func(o runtime.Object) int32 { return job(o).Status.Desired }),
	table.Int32("ACTIVE", "Number of image pull task active", func(o runtime.Object) int32 { return job(o).Status.Active }),
	table.Int32("SUCCEED", "Number of image pull task succeeded", func(o runtime.Object) int32 { return job(o).Status.Succeeded }),
	table.Int32("FAILED", "Number of image pull tasks failed", func(o runtime.Object) int32 { return job(o).Status.Failed }),
	table.Age,
	table.String("MESSAGE", "Summary of status when job is failed", func(o runtime.Object) string { return job(o).Status.Message }),
}}
