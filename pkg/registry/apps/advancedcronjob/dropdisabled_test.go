package advancedcronjob_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/registry/apps/advancedcronjob"
)

// The run template's fields of disabled kube features (lifecycle.stopSignal of
// ContainerStopSignals, turned off here as it is by default) are dropped on create, and
// kept on an update of a stored object that already uses them, as kube's CronJob does;
// an update that only adds such a field changes nothing, the generation included.
func TestRunTemplateDropsDisabledFields(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.ContainerStopSignals, false)
	strategy, _ := advancedcronjob.Kind.Strategies(runtime.NewScheme())
	acj := validACJ()
	pod := &acj.Spec.Template.BroadcastJobTemplate.Spec.Template.Spec
	pod.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: ptr.To(corev1.SIGUSR1)}
	strategy.PrepareForCreate(context.Background(), acj)
	if c := pod.Containers[0]; c.Lifecycle != nil {
		t.Fatalf("create kept lifecycle %+v", c.Lifecycle)
	}

	old := validACJ()
	old.Spec.Template.BroadcastJobTemplate.Spec.Template.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: ptr.To(corev1.SIGUSR1)}
	upd := old.DeepCopy()
	strategy.PrepareForUpdate(context.Background(), upd, old)
	if upd.Spec.Template.BroadcastJobTemplate.Spec.Template.Spec.Containers[0].Lifecycle == nil {
		t.Fatalf("update dropped a field the stored template uses")
	}

	stored := validACJ()
	stored.Generation = 3
	added := stored.DeepCopy()
	added.Spec.Template.BroadcastJobTemplate.Spec.Template.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: ptr.To(corev1.SIGUSR1)}
	strategy.PrepareForUpdate(context.Background(), added, stored)
	if c := added.Spec.Template.BroadcastJobTemplate.Spec.Template.Spec.Containers[0]; c.Lifecycle != nil || added.Generation != 3 {
		t.Fatalf("an update adding only a dropped field: lifecycle %+v, generation %d, want none and 3", c.Lifecycle, added.Generation)
	}
}
