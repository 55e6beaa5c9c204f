package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

func validWorkloadSpread() *apps.WorkloadSpread {
	three := intstr.FromInt32(3)
	return &apps.WorkloadSpread{
		ObjectMeta: metav1.ObjectMeta{Name: "ws", Namespace: "default"},
		Spec: apps.WorkloadSpreadSpec{
			TargetReference: &apps.TargetReference{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web"},
			Subsets: []apps.WorkloadSpreadSubset{
				{Name: "subset-a", MaxReplicas: &three,
					RequiredNodeSelectorTerm: &corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{
						{Key: "topology.kubernetes.io/zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}},
					Patch: runtime.RawExtension{Raw: []byte(`{"metadata":{"labels":{"zone":"a"}}}`)}},
				{Name: "subset-b"},
			},
			ScheduleStrategy: apps.WorkloadSpreadScheduleStrategy{Type: apps.FixedWorkloadSpreadScheduleStrategyType},
		},
	}
}

func TestValidateWorkloadSpread(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mut   func(*apps.WorkloadSpread)
		field string // "" = valid
	}{
		{name: "valid", mut: func(*apps.WorkloadSpread) {}},
		// Nothing is named or labelled after a spread (pods carry its name in an annotation).
		{name: "long name", mut: func(w *apps.WorkloadSpread) { w.Name = strings.Repeat("w", 253) }},
		{name: "deployment target", mut: func(w *apps.WorkloadSpread) {
			w.Spec.TargetReference = &apps.TargetReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}
		}},
		// OpenKruise v1.5+ spreads a native StatefulSet's pods too.
		{name: "native statefulset target", mut: func(w *apps.WorkloadSpread) {
			w.Spec.TargetReference = &apps.TargetReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web"}
		}},
		{name: "job target", mut: func(w *apps.WorkloadSpread) {
			w.Spec.TargetReference = &apps.TargetReference{APIVersion: "batch/v1", Kind: "Job", Name: "web"}
		}},
		{name: "percent", mut: func(w *apps.WorkloadSpread) { p := intstr.FromString("50%"); w.Spec.Subsets[0].MaxReplicas = &p }},
		{name: "target filter", mut: func(w *apps.WorkloadSpread) {
			w.Spec.TargetFilter = &apps.TargetFilter{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"role": "worker"}},
				ReplicasPathList: []string{"spec.tfReplicaSpecs.Worker.replicas", "spec.replicas"}}
		}},
		{name: "target filter bad selector", mut: func(w *apps.WorkloadSpread) {
			w.Spec.TargetFilter = &apps.TargetFilter{Selector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "role", Operator: "Near"}}}}
		}, field: "spec.targetFilter.selector.matchExpressions[0].operator"},
		{name: "target filter empty path", mut: func(w *apps.WorkloadSpread) {
			w.Spec.TargetFilter = &apps.TargetFilter{ReplicasPathList: []string{""}}
		}, field: "spec.targetFilter.replicasPathList[0]"},
		{name: "target filter path with an empty step", mut: func(w *apps.WorkloadSpread) {
			w.Spec.TargetFilter = &apps.TargetFilter{ReplicasPathList: []string{"spec.replicas", "spec..replicas"}}
		}, field: "spec.targetFilter.replicasPathList[1]"},
		{name: "target filter path ending in a dot", mut: func(w *apps.WorkloadSpread) {
			w.Spec.TargetFilter = &apps.TargetFilter{ReplicasPathList: []string{"spec.replicas."}}
		}, field: "spec.targetFilter.replicasPathList[0]"},
		{name: "no target", mut: func(w *apps.WorkloadSpread) { w.Spec.TargetReference = nil }, field: "spec.targetRef"},
		{name: "unsupported kind", mut: func(w *apps.WorkloadSpread) { w.Spec.TargetReference.Kind = "DaemonSet" }, field: "spec.targetRef.kind"},
		{name: "kind of another group", mut: func(w *apps.WorkloadSpread) { w.Spec.TargetReference.APIVersion = "apps/v1" }, field: "spec.targetRef.kind"},
		{name: "no subsets", mut: func(w *apps.WorkloadSpread) { w.Spec.Subsets = nil }, field: "spec.subsets"},
		{name: "duplicate subset", mut: func(w *apps.WorkloadSpread) { w.Spec.Subsets[1].Name = "subset-a" }, field: "spec.subsets[1].name"},
		{name: "negative max", mut: func(w *apps.WorkloadSpread) { m := intstr.FromInt32(-1); w.Spec.Subsets[0].MaxReplicas = &m }, field: "spec.subsets[0].maxReplicas"},
		{name: "percent over 100", mut: func(w *apps.WorkloadSpread) { m := intstr.FromString("150%"); w.Spec.Subsets[0].MaxReplicas = &m }, field: "spec.subsets[0].maxReplicas"},
		{name: "max not a number", mut: func(w *apps.WorkloadSpread) { m := intstr.FromString("lots"); w.Spec.Subsets[0].MaxReplicas = &m }, field: "spec.subsets[0].maxReplicas"},
		{name: "patch not an object", mut: func(w *apps.WorkloadSpread) { w.Spec.Subsets[0].Patch.Raw = []byte(`"x"`) }, field: "spec.subsets[0].patch"},
		{name: "patch not a pod", mut: func(w *apps.WorkloadSpread) {
			w.Spec.Subsets[0].Patch.Raw = []byte(`{"metadata":{"labels":"zone"}}`)
		}, field: "spec.subsets[0].patch"},
		{name: "bad node term", mut: func(w *apps.WorkloadSpread) {
			w.Spec.Subsets[0].RequiredNodeSelectorTerm.MatchExpressions[0].Operator = "Near"
		}, field: "spec.subsets[0].requiredNodeSelectorTerm.matchExpressions[0].operator"},
		{name: "bad toleration", mut: func(w *apps.WorkloadSpread) {
			w.Spec.Subsets[0].Tolerations = []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, Value: "v"}}
		}, field: "spec.subsets[0].tolerations[0].operator"},
		{name: "unknown strategy", mut: func(w *apps.WorkloadSpread) { w.Spec.ScheduleStrategy.Type = "Random" }, field: "spec.scheduleStrategy.type"},
		{name: "reschedule seconds out of range", mut: func(w *apps.WorkloadSpread) {
			v := int32(-1)
			w.Spec.ScheduleStrategy = apps.WorkloadSpreadScheduleStrategy{Type: apps.AdaptiveWorkloadSpreadScheduleStrategyType,
				Adaptive: &apps.AdaptiveWorkloadSpreadStrategy{RescheduleCriticalSeconds: &v}}
		}, field: "spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := validWorkloadSpread()
			tc.mut(w)
			errs := ValidateWorkloadSpread(w)
			if tc.field == "" {
				if len(errs) > 0 {
					t.Fatalf("unexpected errors: %v", errs)
				}
				return
			}
			for _, e := range errs {
				if e.Field == tc.field {
					return
				}
			}
			t.Fatalf("no error at %s: %v", tc.field, errs.ToAggregate())
		})
	}
}

func TestValidateWorkloadSpreadStatusUpdate(t *testing.T) {
	old := validWorkloadSpread()
	w := old.DeepCopy()
	w.Status.SubsetStatuses = []apps.WorkloadSpreadSubsetStatus{{Name: "a", MissingReplicas: -2}, {Name: "a"}}
	errs := ValidateWorkloadSpreadStatusUpdate(w, old)
	if s := errs.ToAggregate().Error(); !strings.Contains(s, "missingReplicas") || !strings.Contains(s, "Duplicate") {
		t.Fatalf("errors %v", s)
	}
}
