package inplaceupdate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestCalculateSpec(t *testing.T) {
	base := func() *corev1.PodTemplateSpec {
		return template(map[string]string{"app": "demo", "version": "1"}, map[string]string{"note": "a"},
			container("sidecar", "proxy:1", priority("10"), "ROLE=annotation:role"),
			container("main", "app:1", "VERSION=label:version"),
		)
	}
	tests := []struct {
		name   string
		change func(oldTmpl, tmpl *corev1.PodTemplateSpec)
		want   *UpdateSpec // nil: not in place
	}{{
		name:   "nothing changed: only the revision moves",
		change: func(_, _ *corev1.PodTemplateSpec) {},
		want:   &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{}, ContainerRefMetadata: map[string]metav1.ObjectMeta{}},
	}, {
		name:   "image only",
		change: func(_, tmpl *corev1.PodTemplateSpec) { tmpl.Spec.Containers[1].Image = "app:2" },
		want: &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"main": "app:2"},
			ContainerRefMetadata: map[string]metav1.ObjectMeta{}},
	}, {
		name: "image and env value",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Spec.Containers[1].Image = "app:2"
			tmpl.Spec.Containers[1].Env = append(tmpl.Spec.Containers[1].Env, corev1.EnvVar{Name: "X", Value: "y"})
		},
	}, {
		name: "image and resources",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Spec.Containers[1].Image = "app:2"
			tmpl.Spec.Containers[1].Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}
		},
	}, {
		name: "container added",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Spec.Containers = append(tmpl.Spec.Containers, container("extra", "x:1"))
		},
	}, {
		name: "containers reordered",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Spec.Containers[0], tmpl.Spec.Containers[1] = tmpl.Spec.Containers[1], tmpl.Spec.Containers[0]
		},
	}, {
		name: "init container image",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Spec.InitContainers = []corev1.Container{container("init", "init:2")}
		},
	}, {
		name:   "template metadata other than labels and annotations",
		change: func(_, tmpl *corev1.PodTemplateSpec) { tmpl.Finalizers = []string{"x"} },
	}, {
		name: "label read by one container's env: that container restarts, label not in the patch",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Labels["version"] = "2"
		},
		want: &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{},
			ContainerRefMetadata:  map[string]metav1.ObjectMeta{"main": {Labels: map[string]string{"version": "2"}}},
			UpdateEnvFromMetadata: true},
	}, {
		name: "annotation read by the sidecar, label read by nobody, image of main",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Annotations["role"] = "edge"
			tmpl.Labels["team"] = "blue"
			tmpl.Spec.Containers[1].Image = "app:2"
		},
		want: &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{"main": "app:2"},
			ContainerRefMetadata:  map[string]metav1.ObjectMeta{"sidecar": {Annotations: map[string]string{"role": "edge"}}},
			MetaDataPatch:         &MetadataPatch{Labels: map[string]string{"team": "blue"}},
			UpdateEnvFromMetadata: true},
	}, {
		name: "labels and annotations set and removed, read by nobody",
		change: func(_, tmpl *corev1.PodTemplateSpec) {
			tmpl.Labels["app"] = "demo2"
			delete(tmpl.Annotations, "note")
			tmpl.Annotations["new"] = "n"
		},
		want: &UpdateSpec{Revision: "rev-2", ContainerImages: map[string]string{}, ContainerRefMetadata: map[string]metav1.ObjectMeta{},
			MetaDataPatch: &MetadataPatch{Labels: map[string]string{"app": "demo2"}, Annotations: map[string]string{"new": "n"}, RemoveAnnotations: []string{"note"}}},
	}, {
		name:   "label read by env removed",
		change: func(_, tmpl *corev1.PodTemplateSpec) { delete(tmpl.Labels, "version") },
	}, {
		name: "label read by a native sidecar init container",
		change: func(oldTmpl, tmpl *corev1.PodTemplateSpec) {
			always := corev1.ContainerRestartPolicyAlways
			init := container("log", "log:1", "TEAM=label:team")
			init.RestartPolicy = &always
			oldTmpl.Spec.InitContainers = []corev1.Container{init}
			tmpl.Spec.InitContainers = []corev1.Container{init}
			tmpl.Labels["team"] = "blue"
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldTmpl, newTmpl := base(), base()
			tt.change(oldTmpl, newTmpl)
			got := CalculateSpec(oldTmpl, newTmpl, "rev-2")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CalculateSpec (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCalculateSpecSharedLabel(t *testing.T) {
	// Both containers read label "zone": both must restart, and both are recorded.
	oldTmpl := template(map[string]string{"zone": "a"}, nil,
		container("sidecar", "proxy:1", priority("10"), "ZONE=label:zone"),
		container("main", "app:1", "Z=label:zone"))
	newTmpl := oldTmpl.DeepCopy()
	newTmpl.Labels["zone"] = "b"
	got := CalculateSpec(oldTmpl, newTmpl, "rev-2")
	want := map[string]metav1.ObjectMeta{
		"sidecar": {Labels: map[string]string{"zone": "b"}},
		"main":    {Labels: map[string]string{"zone": "b"}},
	}
	if diff := cmp.Diff(want, got.ContainerRefMetadata); diff != "" {
		t.Errorf("ContainerRefMetadata (-want +got):\n%s", diff)
	}
}

func TestCalculateSpecNil(t *testing.T) {
	if CalculateSpec(nil, template(nil, nil), "r") != nil || CalculateSpec(template(nil, nil), nil, "r") != nil {
		t.Error("nil template: want nil spec")
	}
}
