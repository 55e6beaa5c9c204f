package advancedcronjob_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/registry/apps/advancedcronjob"
)

// The run template's fields of disabled kube features (lifecycle.stopSignal of
// ContainerStopSignals, turned off here as it is by default) are dropped on create, and kept on an
// update of a stored object that already uses them, as kube's CronJob does.
func TestRunTemplateDropsDisabledFields(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.ContainerStopSignals, false)
	acj := validACJ()
	pod := &acj.Spec.Template.BroadcastJobTemplate.Spec.Template.Spec
	pod.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: ptr.To(corev1.SIGUSR1)}
	advancedcronjob.Kind.PrepareForCreate(context.Background(), acj)
	if c := pod.Containers[0]; c.Lifecycle != nil {
		t.Fatalf("create kept lifecycle %+v", c.Lifecycle)
	}

	old := validACJ()
	old.Spec.Template.BroadcastJobTemplate.Spec.Template.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: ptr.To(corev1.SIGUSR1)}
	upd := old.DeepCopy()
	advancedcronjob.Kind.PrepareForUpdate(context.Background(), upd, old)
	if upd.Spec.Template.BroadcastJobTemplate.Spec.Template.Spec.Containers[0].Lifecycle == nil {
		t.Fatalf("update dropped a field the stored template uses")
	}
}
