package statefulset

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

func ss(obj runtime.Object) *apps.StatefulSet { return obj.(*apps.StatefulSet) }

// TableConvertor prints OpenKruise's Advanced StatefulSet columns:
// DESIRED CURRENT UPDATED READY AGE, and with -o wide CONTAINERS IMAGES.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("DESIRED", "The desired number of pods.", func(o runtime.Object) int32 {
		if r := ss(o).Spec.Replicas; r != nil {
			return *r
		}
		return 0
	}),
	table.Int32("CURRENT", "The number of currently all pods.", func(o runtime.Object) int32 { return ss(o).Status.Replicas }),
	table.Int32("UPDATED", "The number of pods updated.", func(o runtime.Object) int32 { return ss(o).Status.UpdatedReplicas }),
	table.Int32("READY", "The number of pods ready.", func(o runtime.Object) int32 { return ss(o).Status.ReadyReplicas }),
	table.Age,
	table.Wide("CONTAINERS", "The containers of currently advanced statefulset.", func(o runtime.Object) string { return table.ContainerNames(&ss(o).Spec.Template) }),
	table.Wide("IMAGES", "The images of currently advanced statefulset.", func(o runtime.Object) string { return table.ContainerImages(&ss(o).Spec.Template) }),
}}
