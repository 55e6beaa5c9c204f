package kubectlkruise

import (
	"errors"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// The helper reaches the template of every Kruise workload in both versions, and
// hands everything else to kubectl's helper unchanged.
func TestUpdatePodSpecWith(t *testing.T) {
	builtinCalled := errors.New("builtin called")
	builtin := func(runtime.Object, func(*corev1.PodSpec) error) (bool, error) { return false, builtinCalled }
	update := updatePodSpecWith(builtin)
	setSA := func(spec *corev1.PodSpec) error { spec.ServiceAccountName = "sa"; return nil }

	for _, obj := range []runtime.Object{
		&v1alpha1.CloneSet{}, &v1beta1.CloneSet{},
		&v1alpha1.StatefulSet{}, &v1beta1.StatefulSet{},
		&v1alpha1.DaemonSet{}, &v1beta1.DaemonSet{},
		&v1alpha1.BroadcastJob{}, &v1beta1.BroadcastJob{},
		&v1alpha1.AdvancedCronJob{Spec: v1alpha1.AdvancedCronJobSpec{Template: v1alpha1.CronJobTemplate{JobTemplate: &batchv1.JobTemplateSpec{}}}},
		&v1beta1.AdvancedCronJob{Spec: v1beta1.AdvancedCronJobSpec{Template: v1beta1.CronJobTemplate{BroadcastJobTemplate: &v1beta1.BroadcastJobTemplateSpec{}}}},
		&v1alpha1.UnitedDeployment{Spec: v1alpha1.UnitedDeploymentSpec{Template: v1alpha1.SubsetTemplate{CloneSetTemplate: &v1alpha1.CloneSetTemplateSpec{}}}},
		&v1beta1.UnitedDeployment{Spec: v1beta1.UnitedDeploymentSpec{Template: v1beta1.SubsetTemplate{DeploymentTemplate: &v1beta1.DeploymentTemplateSpec{}}}},
		&v1beta1.UnitedDeployment{Spec: v1beta1.UnitedDeploymentSpec{Template: v1beta1.SubsetTemplate{AdvancedStatefulSetTemplate: &v1beta1.AdvancedStatefulSetTemplateSpec{}}}},
	} {
		ok, err := update(obj, setSA)
		if !ok || err != nil {
			t.Errorf("%T: ok=%v err=%v, want true, nil", obj, ok, err)
			continue
		}
		if tmpl, _ := kruisePodTemplate(obj); tmpl.Spec.ServiceAccountName != "sa" {
			t.Errorf("%T: template not updated", obj)
		}
	}
	// An AdvancedCronJob of ImageListPullJobs has no pod template: kubectl's helper
	// answers for it (with its "does not have a pod template" error).
	for _, obj := range []runtime.Object{&appsv1.Deployment{}, &v1alpha1.SidecarSet{}, &v1alpha1.AdvancedCronJob{}, &v1beta1.UnitedDeployment{}} {
		if _, err := update(obj, setSA); !errors.Is(err, builtinCalled) {
			t.Errorf("%T: err=%v, want kubectl's helper to be asked", obj, err)
		}
	}
}
