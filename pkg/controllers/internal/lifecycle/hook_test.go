package lifecycle

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func TestHookHoldsAndSatisfied(t *testing.T) {
	both := &pub.LifecycleHook{
		LabelsHandler:     map[string]string{blockLabel: "true", "other": "yes"},
		FinalizersHandler: []string{blockFin, "example.io/second"},
	}
	tests := []struct {
		name          string
		hook          *pub.LifecycleHook
		pod           *corev1.Pod
		holds, satisf bool
	}{
		{"nil hook", nil, pod("", withLabel), false, true},
		{"empty hook", &pub.LifecycleHook{}, pod(""), false, true},
		{"labels hook, label present", labelsHook(false), pod("", withLabel), true, true},
		{"labels hook, label absent", labelsHook(false), pod(""), false, false},
		{"labels hook, other value", labelsHook(false), pod("", func(p *corev1.Pod) { p.Labels[blockLabel] = "false" }), false, false},
		{"finalizers hook, finalizer present", finalizersHook(false), pod("", withFinalizer), true, true},
		{"finalizers hook, finalizer absent", finalizersHook(false), pod(""), false, false},
		{"both kinds, one label only", both, pod("", withLabel), true, false},
		{"both kinds, one finalizer only", both, pod("", withFinalizer), true, false},
		{"both kinds, all present", both, pod("", withLabel, withFinalizer, func(p *corev1.Pod) {
			p.Labels["other"] = "yes"
			p.Finalizers = append(p.Finalizers, "example.io/second")
		}), true, true},
		{"both kinds, none present", both, pod(""), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HookHolds(tt.hook, tt.pod); got != tt.holds {
				t.Errorf("HookHolds = %v, want %v", got, tt.holds)
			}
			if got := IsHookSatisfied(tt.hook, tt.pod); got != tt.satisf {
				t.Errorf("IsHookSatisfied = %v, want %v", got, tt.satisf)
			}
		})
	}
}
