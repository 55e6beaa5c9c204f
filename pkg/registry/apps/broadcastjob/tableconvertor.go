package broadcastjob

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

func job(obj runtime.Object) *apps.BroadcastJob { return obj.(*apps.BroadcastJob) }

// TableConvertor prints OpenKruise's BroadcastJob columns: DESIRED ACTIVE SUCCEEDED FAILED AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("Desired", "The desired number of pods: one per eligible node.", func(o runtime.Object) int32 { return job(o).Status.Desired }),
	table.Int32("Active", "The number of running pods.", func(o runtime.Object) int32 { return job(o).Status.Active }),
	table.Int32("Succeeded", "The number of pods in phase Succeeded.", func(o runtime.Object) int32 { return job(o).Status.Succeeded }),
	table.Int32("Failed", "The number of pods in phase Failed.", func(o runtime.Object) int32 { return job(o).Status.Failed }),
	table.Age,
}}
