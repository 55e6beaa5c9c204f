package uniteddeployment

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

func ud(obj runtime.Object) *apps.UnitedDeployment { return obj.(*apps.UnitedDeployment) }

// TableConvertor prints OpenKruise's UnitedDeployment columns: DESIRED CURRENT UPDATED READY AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("DESIRED", "The desired number of pods.", func(o runtime.Object) int32 {
		if r := ud(o).Spec.Replicas; r != nil {
			return *r
		}
		return 0
	}),
	table.Int32("CURRENT", "The number of currently all pods.", func(o runtime.Object) int32 { return ud(o).Status.Replicas }),
	table.Int32("UPDATED", "The number of pods updated.", func(o runtime.Object) int32 { return ud(o).Status.UpdatedReplicas }),
	table.Int32("READY", "The number of pods ready.", func(o runtime.Object) int32 { return ud(o).Status.ReadyReplicas }),
	table.Age,
}}
