package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// TestUpstreamRulesAcceptedHere: the objects OpenKruise's webhooks refuse that
// kruise-apiserver stores on purpose, one per row of README.md's table of workload
// rules accepted here (the rows that need the server are not here).
func TestUpstreamRulesAcceptedHere(t *testing.T) {
	cases := []struct {
		upstream string
		errs     func(t *testing.T) field.ErrorList
	}{
		{"cloneset/validating/validation.go:validateCloneSetUpdate: progressDeadlineSeconds may change", func(t *testing.T) field.ErrorList {
			old := newCloneSet(t)
			cs := old.DeepCopy()
			cs.Spec.ProgressDeadlineSeconds = int32p(1200)
			return ValidateCloneSetUpdate(cs, old)
		}},
		{"cloneset/validating/validation.go:validateUpdateStrategy: OnDelete", func(t *testing.T) field.ErrorList {
			cs := newCloneSet(t)
			cs.Spec.UpdateStrategy.Type = apps.OnDeleteCloneSetUpdateStrategyType
			return ValidateCloneSet(cs)
		}},
		{"daemonset/validating/daemonset_validation.go:validateDaemonSetSpec: read-write gcePersistentDisk", func(t *testing.T) field.ErrorList {
			ds := newDaemonSet(t)
			ds.Spec.Template.Spec.Volumes = []corev1.Volume{{Name: "pd", VolumeSource: corev1.VolumeSource{
				GCEPersistentDisk: &corev1.GCEPersistentDiskVolumeSource{PDName: "disk", FSType: "ext4"}}}}
			return ValidateDaemonSet(ds)
		}},
		{"daemonset/validating/daemonset_validation.go:validateDaemonSetSpec: lifecycle.inPlaceUpdate", func(t *testing.T) field.ErrorList {
			ds := newDaemonSet(t)
			ds.Spec.Lifecycle = &pub.Lifecycle{InPlaceUpdate: &pub.LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}}}
			return ValidateDaemonSet(ds)
		}},
		{"advancedcronjob/validating/advancedcronjob_create_update_handler.go:validateAdvancedCronJobUpdate: template changed", func(t *testing.T) field.ErrorList {
			old := newAdvancedCronJob(t)
			acj := old.DeepCopy()
			acj.Spec.Template.BroadcastJobTemplate.Spec.Template.Spec.Containers[0].Image = "nginx:1.27"
			return ValidateAdvancedCronJobUpdate(acj, old)
		}},
		{"advancedcronjob/validating/advancedcronjob_create_update_handler.go:validateAdvancedCronJobSpecTemplate: imageListPullJobTemplate only", func(t *testing.T) field.ErrorList {
			acj := newAdvancedCronJob(t)
			acj.Spec.Template = apps.CronJobTemplate{ImageListPullJobTemplate: &apps.ImageListPullJobTemplateSpec{Spec: apps.ImageListPullJobSpec{
				Images:               []string{"nginx:1.25"},
				ImagePullJobTemplate: apps.ImagePullJobTemplate{CompletionPolicy: apps.CompletionPolicy{Type: apps.Always}},
			}}}
			return ValidateAdvancedCronJob(acj)
		}},
		{"uniteddeployment/validating/uniteddeployment_validation.go:validateUnitedDeploymentTopology: nodeSelectorTerm and tolerations changed", func(t *testing.T) field.ErrorList {
			old := newUnitedDeployment(t)
			ud := old.DeepCopy()
			ud.Spec.Topology.Subsets[0].NodeSelectorTerm.MatchExpressions[0].Values = []string{"a", "d"}
			ud.Spec.Topology.Subsets[0].Tolerations = []corev1.Toleration{{Key: "spot", Operator: corev1.TolerationOpExists}}
			return ValidateUnitedDeploymentUpdate(ud, old)
		}},
		{"uniteddeployment/validating/uniteddeployment_validation.go:validateSubsetTemplate: workload labels without the selector's matchLabels", func(t *testing.T) field.ErrorList {
			ud := newUnitedDeployment(t)
			udStatefulSet(ud)
			ud.Spec.Template.StatefulSetTemplate.Labels = map[string]string{"tier": "web"}
			return ValidateUnitedDeployment(ud)
		}},
		{"uniteddeployment/validating/uniteddeployment_validation.go:validateSubsetReplicas: fixed percents adding up to 100% before rounding", func(t *testing.T) field.ErrorList {
			ud := newUnitedDeployment(t)
			ud.Spec.Topology.Subsets[0].Replicas = strOrStr("33%")
			ud.Spec.Topology.Subsets[1].Replicas = strOrStr("33%")
			ud.Spec.Topology.Subsets[2].Replicas = strOrStr("34%")
			return ValidateUnitedDeployment(ud)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.upstream, func(t *testing.T) { expectErrors(t, tc.errs(t)) })
	}
}
