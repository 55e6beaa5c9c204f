package cloneset

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

func cs(obj runtime.Object) *apps.CloneSet { return obj.(*apps.CloneSet) }

// TableConvertor prints OpenKruise's CloneSet columns:
// DESIRED UPDATED UPDATED_READY READY TOTAL AGE, and with -o wide CONTAINERS IMAGES SELECTOR.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("DESIRED", "The desired number of pods.", func(o runtime.Object) int32 {
		if r := cs(o).Spec.Replicas; r != nil {
			return *r
		}
		return 0
	}),
	table.Int32("UPDATED", "The number of pods updated.", func(o runtime.Object) int32 { return cs(o).Status.UpdatedReplicas }),
	table.Int32("UPDATED_READY", "The number of pods updated and ready.", func(o runtime.Object) int32 { return cs(o).Status.UpdatedReadyReplicas }),
	table.Int32("READY", "The number of pods ready.", func(o runtime.Object) int32 { return cs(o).Status.ReadyReplicas }),
	table.Int32("TOTAL", "The number of currently all pods.", func(o runtime.Object) int32 { return cs(o).Status.Replicas }),
	table.Age,
	table.Wide("CONTAINERS", "The containers of currently cloneset.", func(o runtime.Object) string { return table.ContainerNames(&cs(o).Spec.Template) }),
	table.Wide("IMAGES", "The images of currently cloneset.", func(o runtime.Object) string { return table.ContainerImages(&cs(o).Spec.Template) }),
	table.Wide("SELECTOR", "The selector of currently cloneset.", func(o runtime.Object) string { return cs(o).Status.LabelSelector }),
}}
