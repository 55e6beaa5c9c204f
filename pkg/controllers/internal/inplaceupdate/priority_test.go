package inplaceupdate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestContainerPriority(t *testing.T) {
	tests := []struct {
		name string
		c    corev1.Container
		want int
	}{
		{"missing", container("c", "i"), 0},
		{"ten", container("c", "i", priority("10")), 10},
		{"negative", container("c", "i", priority("-3")), -3},
		{"not a number", container("c", "i", priority("high")), 0},
	}
	for _, tt := range tests {
		if got := ContainerPriority(&tt.c); got != tt.want {
			t.Errorf("%s: ContainerPriority = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestSplitBatches(t *testing.T) {
	labels := func(kv ...string) metav1.ObjectMeta {
		m := metav1.ObjectMeta{Labels: map[string]string{}}
		for i := 0; i < len(kv); i += 2 {
			m.Labels[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name       string
		containers []corev1.Container
		spec       *UpdateSpec
		wantNow    *UpdateSpec
		wantNext   *UpdateSpec
	}{{
		name: "sidecar priority 10 before main (missing = 0)",
		containers: []corev1.Container{
			container("main", "app:1"),
			container("sidecar", "proxy:1", priority("10")),
		},
		spec: &UpdateSpec{Revision: "r", ContainerImages: map[string]string{"main": "app:2", "sidecar": "proxy:2"},
			MetaDataPatch: &MetadataPatch{Labels: map[string]string{"a": "b"}}},
		wantNow:  &UpdateSpec{Revision: "r", ContainerImages: map[string]string{"sidecar": "proxy:2"}, MetaDataPatch: &MetadataPatch{Labels: map[string]string{"a": "b"}}},
		wantNext: &UpdateSpec{Revision: "r", ContainerImages: map[string]string{"main": "app:2"}},
	}, {
		name: "equal priorities in one batch",
		containers: []corev1.Container{
			container("a", "a:1", priority("5")),
			container("b", "b:1", priority("5")),
			container("c", "c:1", priority("1")),
		},
		spec:     &UpdateSpec{Revision: "r", ContainerImages: map[string]string{"a": "a:2", "b": "b:2", "c": "c:2"}},
		wantNow:  &UpdateSpec{Revision: "r", ContainerImages: map[string]string{"a": "a:2", "b": "b:2"}},
		wantNext: &UpdateSpec{Revision: "r", ContainerImages: map[string]string{"c": "c:2"}},
	}, {
		name: "highest among changed containers only",
		containers: []corev1.Container{
			container("sidecar", "proxy:1", priority("10")),
			container("main", "app:1"),
		},
		spec:    &UpdateSpec{Revision: "r", ContainerImages: map[string]string{"main": "app:2"}},
		wantNow: &UpdateSpec{Revision: "r", ContainerImages: map[string]string{"main": "app:2"}},
	}, {
		name: "a lower-priority reader of a shared label joins the batch",
		containers: []corev1.Container{
			container("sidecar", "proxy:1", priority("10"), "Z=label:zone"),
			container("main", "app:1", "Z=label:zone"),
			container("other", "o:1", "V=label:v"),
		},
		spec: &UpdateSpec{Revision: "r", UpdateEnvFromMetadata: true, ContainerRefMetadata: map[string]metav1.ObjectMeta{
			"sidecar": labels("zone", "b"), "main": labels("zone", "b"), "other": labels("v", "2"),
		}},
		wantNow: &UpdateSpec{Revision: "r", UpdateEnvFromMetadata: true, ContainerRefMetadata: map[string]metav1.ObjectMeta{
			"sidecar": labels("zone", "b"), "main": labels("zone", "b"),
		}},
		wantNext: &UpdateSpec{Revision: "r", UpdateEnvFromMetadata: true, ContainerRefMetadata: map[string]metav1.ObjectMeta{
			"other": labels("v", "2"),
		}},
	}, {
		name:       "metadata only: one empty batch",
		containers: []corev1.Container{container("main", "app:1")},
		spec:       &UpdateSpec{Revision: "r", MetaDataPatch: &MetadataPatch{RemoveLabels: []string{"x"}}},
		wantNow:    &UpdateSpec{Revision: "r", MetaDataPatch: &MetadataPatch{RemoveLabels: []string{"x"}}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: tt.containers}}
			now, next := SplitBatches(tt.spec, pod)
			if diff := cmp.Diff(tt.wantNow, now); diff != "" {
				t.Errorf("now (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantNext, next); diff != "" {
				t.Errorf("next (-want +got):\n%s", diff)
			}
		})
	}
}
