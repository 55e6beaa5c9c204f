package workload

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// template returns a pod template whose container asks for a stop signal: the field of
// ContainerStopSignals, a kube alpha feature (off unless --feature-gates turns it on).
func template(stopSignal bool) *corev1.PodTemplateSpec {
	t := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		ServiceAccountName: "runner",
		OS:                 &corev1.PodOS{Name: corev1.Linux},
		Containers: []corev1.Container{{Name: "c", Image: "nginx",
			Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 1}}}}},
	}}
	if stopSignal {
		t.Spec.Containers[0].Lifecycle.StopSignal = ptr.To(corev1.SIGUSR1)
	}
	return t
}

func TestDropDisabledTemplateFields(t *testing.T) {
	for _, tc := range []struct {
		name      string
		gateOn    bool
		tmpl, old *corev1.PodTemplateSpec
		want      *corev1.PodTemplateSpec
	}{
		{name: "create drops a disabled field", tmpl: template(true), want: template(false)},
		{name: "update keeps it when the stored template uses it", tmpl: template(true), old: template(true), want: template(true)},
		{name: "update drops it when the stored template does not", tmpl: template(true), old: template(false), want: template(false)},
		{name: "kept when the gate is on", gateOn: true, tmpl: template(true), want: template(true)},
		{name: "a template without disabled fields is left as it came", tmpl: template(false), want: template(false)},
		{name: "nil template", tmpl: nil, want: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.ContainerStopSignals, tc.gateOn)
			DropDisabledTemplateFields(tc.tmpl, tc.old)
			if diff := cmp.Diff(tc.want, tc.tmpl); diff != "" {
				t.Errorf("template (-want +got):\n%s", diff)
			}
		})
	}
}

// The shared strategy drops them on create and update, before the generation is
// decided, for every kind that names its template.
func TestStrategyDropsDisabledTemplateFields(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.ContainerStopSignals, false)
	s := NewStrategy(runtime.NewScheme(), Kind[*apps.CloneSet]{
		ResetStatus: func(cs *apps.CloneSet) { cs.Status = apps.CloneSetStatus{} },
		KeepStatus:  func(cs, old *apps.CloneSet) { cs.Status = old.Status },
		SpecChanged: func(cs, old *apps.CloneSet) bool { return cmp.Diff(cs.Spec, old.Spec) != "" },
		Templates: func(cs *apps.CloneSet) (*corev1.PodTemplateSpec, []corev1.PersistentVolumeClaim) {
			return &cs.Spec.Template, cs.Spec.VolumeClaimTemplates
		},
	})
	ctx := context.Background()
	cs := &apps.CloneSet{Spec: apps.CloneSetSpec{Template: *template(true)}}
	s.PrepareForCreate(ctx, cs)
	if cs.Spec.Template.Spec.Containers[0].Lifecycle.StopSignal != nil {
		t.Errorf("create kept lifecycle.stopSignal of a disabled feature")
	}
	old := cs.DeepCopy()
	cs.Spec.Template = *template(true)
	s.PrepareForUpdate(ctx, cs, old)
	if cs.Spec.Template.Spec.Containers[0].Lifecycle.StopSignal != nil {
		t.Errorf("update kept lifecycle.stopSignal of a disabled feature")
	}
	if cs.Generation != old.Generation {
		t.Errorf("generation %d -> %d: the dropped field is no spec change", old.Generation, cs.Generation)
	}
}
