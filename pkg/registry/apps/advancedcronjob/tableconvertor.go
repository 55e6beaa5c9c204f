package advancedcronjob

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

func acj(obj runtime.Object) *apps.AdvancedCronJob { return obj.(*apps.AdvancedCronJob) }

// TableConvertor prints OpenKruise's AdvancedCronJob columns: SCHEDULE TYPE LASTSCHEDULETIME AGE.
var TableConvertor = table.Convertor{Columns: []table.Column{
	table.Name,
	table.String("Schedule", "The cron schedule.", func(o runtime.Object) string { return acj(o).Spec.Schedule }),
	table.String("Type", "The kind of run: Job, BroadcastJob or ImageListPullJob.", func(o runtime.Object) string { return string(acj(o).Status.Type) }),
	table.Date("LastScheduleTime", "When a run was last started.", func(o runtime.Object) *metav1.Time { return acj(o).Status.LastScheduleTime }),
	table.Age,
}}
