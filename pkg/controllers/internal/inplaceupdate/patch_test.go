package inplaceupdate

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func TestPatchBytes(t *testing.T) {
	base := func() *corev1.Pod {
		p := runningPod(template(map[string]string{"app": "demo", "gone": "x"}, map[string]string{"a": "1"},
			container("main", "app:1"), container("sidecar", "proxy:1")))
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0}}
		return p
	}
	tests := []struct {
		name    string
		change  func(p *corev1.Pod)
		want    string // "" = nil patch
		wantErr bool
	}{{
		name:   "nothing",
		change: func(*corev1.Pod) {},
	}, {
		name: "image of one container, labels set and removed, annotation",
		change: func(p *corev1.Pod) {
			p.Spec.Containers[1].Image = "proxy:2"
			p.Labels[pub.ControllerRevisionHashLabelKey] = "rev-2"
			delete(p.Labels, "gone")
			p.Annotations["b"] = "2"
		},
		want: `{"metadata":{"annotations":{"b":"2"},"labels":{"controller-revision-hash":"rev-2","gone":null},"uid":"uid-1"},` +
			`"spec":{"containers":[{"name":"sidecar","image":"proxy:2"}]}}`,
	}, {
		name: "condition added",
		change: func(p *corev1.Pod) {
			p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: inPlaceUpdateReady, Status: corev1.ConditionFalse, Reason: "R", LastTransitionTime: t1})
		},
		want: `{"metadata":{"uid":"uid-1"},"status":{"conditions":[{"type":"InPlaceUpdateReady","status":"False","lastProbeTime":null,"lastTransitionTime":"2026-01-02T03:04:15Z","reason":"R"}]}}`,
	}, {
		name: "other spec and status fields are not patched",
		change: func(p *corev1.Pod) {
			p.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "X", Value: "y"}}
			p.Status.ContainerStatuses[0].Ready = false
			p.ResourceVersion = "8"
		},
	}, {
		name:    "container added",
		change:  func(p *corev1.Pod) { p.Spec.Containers = append(p.Spec.Containers, container("x", "x:1")) },
		wantErr: true,
	}, {
		name:    "container renamed",
		change:  func(p *corev1.Pod) { p.Spec.Containers[1].Name = "proxy" },
		wantErr: true,
	}, {
		name:    "condition removed",
		change:  func(p *corev1.Pod) { p.Status.Conditions = nil },
		wantErr: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := base()
			cur := old.DeepCopy()
			tt.change(cur)
			got, err := PatchBytes(old, cur)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("patch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPatchBytesApplies checks that the patch of a Prepare'd pod, applied by strategic
// merge to the old pod, yields the prepared pod's labels, annotations and images.
func TestPatchBytesApplies(t *testing.T) {
	oldTmpl, newTmpl := sidecarAndMain()
	old := runningPod(oldTmpl)
	old.Labels["gone"] = "x"
	spec := CalculateSpec(oldTmpl, newTmpl, "rev-2")
	spec.MetaDataPatch.RemoveLabels = []string{"gone"}
	prepared, err := Prepare(old, spec, "", t0)
	if err != nil {
		t.Fatal(err)
	}
	patch, err := PatchBytes(old, prepared)
	if err != nil {
		t.Fatal(err)
	}
	oldJSON, _ := json.Marshal(old)
	merged, err := strategicpatch.StrategicMergePatch(oldJSON, patch, &corev1.Pod{})
	if err != nil {
		t.Fatal(err)
	}
	var got corev1.Pod
	if err := json.Unmarshal(merged, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(prepared, &got); diff != "" {
		t.Errorf("patched pod differs from the prepared one (-prepared +patched):\n%s", diff)
	}
}
