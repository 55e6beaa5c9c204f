package podpatch

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

var t0 = metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))

func basePod() *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "uid-1", ResourceVersion: "7",
			Labels: map[string]string{"app": "demo", "gone": "x"}, Annotations: map[string]string{"a": "1"},
			Finalizers: []string{"keep.io/a", "drop.io/b"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "app:1"}, {Name: "sidecar", Image: "proxy:1"}}},
		Status: corev1.PodStatus{
			Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "main", Ready: true}},
		},
	}
}

func TestBytes(t *testing.T) {
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
			p.Labels["controller-revision-hash"] = "rev-2"
			delete(p.Labels, "gone")
			p.Annotations["b"] = "2"
		},
		want: `{"metadata":{"annotations":{"b":"2"},"labels":{"controller-revision-hash":"rev-2","gone":null},"uid":"uid-1"},` +
			`"spec":{"containers":[{"name":"sidecar","image":"proxy:2"}]}}`,
	}, {
		name: "condition added",
		change: func(p *corev1.Pod) {
			p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: "InPlaceUpdateReady", Status: corev1.ConditionFalse, Reason: "R", LastTransitionTime: t0})
		},
		want: `{"metadata":{"uid":"uid-1"},"status":{"conditions":[{"lastProbeTime":null,"lastTransitionTime":"2026-01-02T03:04:05Z","reason":"R","status":"False","type":"InPlaceUpdateReady"}]}}`,
	}, {
		name: "condition message cleared",
		change: func(p *corev1.Pod) {
			p.Status.Conditions[0].Status = corev1.ConditionFalse
			p.Status.Conditions[0].Reason = "R"
			p.Status.Conditions[0].Message = "m"
		},
		want: `{"metadata":{"uid":"uid-1"},"status":{"conditions":[{"lastProbeTime":null,"lastTransitionTime":"2026-01-02T03:04:05Z","message":"m","reason":"R","status":"False","type":"Ready"}]}}`,
	}, {
		name:   "finalizer added and one removed",
		change: func(p *corev1.Pod) { p.Finalizers = []string{"keep.io/a", "new.io/c"} },
		want: `{"metadata":{"$deleteFromPrimitiveList/finalizers":["drop.io/b"],"$setElementOrder/finalizers":["keep.io/a","new.io/c"],` +
			`"finalizers":["new.io/c"],"uid":"uid-1"}}`,
	}, {
		name: "other spec and status fields are not patched",
		change: func(p *corev1.Pod) {
			p.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "X", Value: "y"}}
			p.Status.ContainerStatuses[0].Ready = false
			p.ResourceVersion = "8"
		},
	}, {
		name: "container added",
		change: func(p *corev1.Pod) {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "x", Image: "x:1"})
		},
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
			old := basePod()
			cur := old.DeepCopy()
			tt.change(cur)
			got, err := Bytes(old, cur)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("patch (-want +got):\n%s", diff)
			}
			if got == nil || tt.wantErr {
				return
			}
			// Applied by strategic merge, the patch gives the new pod's patched fields.
			oldJSON, _ := json.Marshal(old)
			merged, err := strategicpatch.StrategicMergePatch(oldJSON, got, &corev1.Pod{})
			if err != nil {
				t.Fatalf("apply %s: %v", got, err)
			}
			var applied corev1.Pod
			if err := json.Unmarshal(merged, &applied); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(patchedFields(cur), patchedFields(&applied)); diff != "" {
				t.Errorf("applied patch differs (-want +got):\n%s", diff)
			}
		})
	}
}

// patchedFields are the fields Bytes sends.
func patchedFields(p *corev1.Pod) *corev1.Pod {
	out := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: p.Labels, Annotations: p.Annotations, Finalizers: p.Finalizers},
		Status: corev1.PodStatus{Conditions: p.Status.Conditions}}
	slices.SortFunc(out.Status.Conditions, func(a, b corev1.PodCondition) int { return strings.Compare(string(a.Type), string(b.Type)) })
	for _, c := range p.Spec.Containers {
		out.Spec.Containers = append(out.Spec.Containers, corev1.Container{Name: c.Name, Image: c.Image})
	}
	return out
}
