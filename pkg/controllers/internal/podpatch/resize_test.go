package podpatch

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestResizeBytes(t *testing.T) {
	q := resource.MustParse
	tests := []struct {
		name    string
		change  func(p *corev1.Pod)
		want    string // "" = nil patch
		wantErr bool
	}{{
		name:   "nothing",
		change: func(*corev1.Pod) {},
	}, {
		name: "image and labels only: no resize",
		change: func(p *corev1.Pod) {
			p.Spec.Containers[0].Image = "app:2"
			p.Labels["x"] = "y"
		},
	}, {
		name: "one container's requests and limits: the whole requirements of that container",
		change: func(p *corev1.Pod) {
			p.Spec.Containers[1].Resources = corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: q("200m"), corev1.ResourceMemory: q("64Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: q("1")},
			}
		},
		want: `{"metadata":{"uid":"uid-1"},"spec":{"containers":[{"name":"sidecar","resources":{"limits":{"cpu":"1"},"requests":{"cpu":"200m","memory":"64Mi"}}}]}}`,
	}, {
		name: "both containers",
		change: func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: q("1")}
			p.Spec.Containers[1].Resources.Requests = corev1.ResourceList{corev1.ResourceMemory: q("1Gi")}
		},
		want: `{"metadata":{"uid":"uid-1"},"spec":{"containers":[{"name":"main","resources":{"requests":{"cpu":"1"}}},{"name":"sidecar","resources":{"requests":{"memory":"1Gi"}}}]}}`,
	}, {
		name:    "container added",
		change:  func(p *corev1.Pod) { p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "x"}) },
		wantErr: true,
	}, {
		name:    "container renamed",
		change:  func(p *corev1.Pod) { p.Spec.Containers[1].Name = "proxy" },
		wantErr: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := basePod()
			cur := old.DeepCopy()
			tt.change(cur)
			got, err := ResizeBytes(old, cur)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if string(got) != tt.want {
				t.Errorf("patch\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}
