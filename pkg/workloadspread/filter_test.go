package workloadspread

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func filtered(sel *metav1.LabelSelector, paths ...string) *appsv1beta1.WorkloadSpread {
	ws := &appsv1beta1.WorkloadSpread{}
	if sel != nil || len(paths) > 0 {
		ws.Spec.TargetFilter = &appsv1beta1.TargetFilter{Selector: sel, ReplicasPathList: paths}
	}
	return ws
}

func TestSelects(t *testing.T) {
	worker := &metav1.LabelSelector{MatchLabels: map[string]string{"role": "worker"}}
	for _, tc := range []struct {
		name   string
		ws     *appsv1beta1.WorkloadSpread
		labels map[string]string
		want   bool
	}{
		{"no filter: every pod", filtered(nil), map[string]string{"role": "ps"}, true},
		{"filter without selector: every pod", filtered(nil, "spec.replicas"), nil, true},
		{"selected", filtered(worker), map[string]string{"role": "worker", "app": "x"}, true},
		{"not selected", filtered(worker), map[string]string{"role": "ps"}, false},
		{"no labels", filtered(worker), nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Selects(tc.ws, tc.labels)
			if err != nil || got != tc.want {
				t.Fatalf("Selects = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestFilteredReplicas(t *testing.T) {
	obj := map[string]any{"spec": map[string]any{
		"replicas": int64(10),
		"tfReplicaSpecs": map[string]any{
			"Worker": map[string]any{"replicas": int64(4)},
			"PS":     map[string]any{"replicas": float64(2)},
		},
		"name": "x",
	}}
	for _, tc := range []struct {
		name    string
		paths   []string
		want    int32
		wantErr bool
	}{
		{"no paths: the target's replicas", nil, 7, false},
		{"one path", []string{"spec.tfReplicaSpecs.Worker.replicas"}, 4, false},
		{"paths are summed", []string{"spec.tfReplicaSpecs.Worker.replicas", "spec.tfReplicaSpecs.PS.replicas"}, 6, false},
		{"a missing field counts 0", []string{"spec.tfReplicaSpecs.Chief.replicas", "spec.replicas"}, 10, false},
		{"not an integer", []string{"spec.name"}, 0, true},
		{"through a non-object", []string{"spec.name.x"}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FilteredReplicas(filtered(nil, tc.paths...), obj, 7)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Fatalf("FilteredReplicas = %d, %v; want %d (error %v)", got, err, tc.want, tc.wantErr)
			}
		})
	}
}
