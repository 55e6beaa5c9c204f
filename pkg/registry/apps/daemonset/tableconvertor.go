package daemonset

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

func ds(obj runtime.Object) *apps.DaemonSet { return obj.(*apps.DaemonSet) }

// TableConvertor prints OpenKruise's Advanced DaemonSet columns:
// DESIRED CURRENT READY UP-TO-DATE AVAILABLE AGE, and with -o wide CONTAINERS IMAGES.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.Int32("DESIRED", "The desired number of pods.", func(o runtime.Object) int32 { return ds(o).Status.DesiredNumberScheduled }),
	table.Int32("CURRENT", "The current number of pods.", func(o runtime.Object) int32 { return ds(o).Status.CurrentNumberScheduled }),
	table.Int32("READY", "The ready number of pods.", func(o runtime.Object) int32 { return ds(o).Status.NumberReady }),
	table.Int32("UP-TO-DATE", "The updated number of pods.", func(o runtime.Object) int32 { return ds(o).Status.UpdatedNumberScheduled }),
	table.Int32("AVAILABLE", "The available number of pods.", func(o runtime.Object) int32 { return ds(o).Status.NumberAvailable }),
	table.Age,
	table.Wide("CONTAINERS", "The containers of currently advanced daemonset.", func(o runtime.Object) string { return table.ContainerNames(&ds(o).Spec.Template) }),
	table.Wide("IMAGES", "The images of currently advanced daemonset.", func(o runtime.Object) string { return table.ContainerImages(&ds(o).Spec.Template) }),
}}
