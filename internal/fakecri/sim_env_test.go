package fakecri

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestResolveEnv(t *testing.T) {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: "web-0", Namespace: "prod", UID: "uid-1",
			Labels:      map[string]string{"app": "web", "dotted.io/key": "x"},
			Annotations: map[string]string{"version": "v2"},
		},
		Spec:   corev1.PodSpec{NodeName: "kwok-node-0", ServiceAccountName: "sa"},
		Status: corev1.PodStatus{PodIP: "10.0.0.7", HostIP: "10.0.0.1", PodIPs: []corev1.PodIP{{IP: "10.0.0.7"}, {IP: "fd00::7"}}},
	}
	field := func(path string) *corev1.EnvVarSource {
		return &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: path}}
	}
	tests := []struct {
		env  corev1.EnvVar
		want string
	}{
		{corev1.EnvVar{Name: "LITERAL", Value: "hello"}, "hello"},
		{corev1.EnvVar{Name: "EMPTY"}, ""},
		{corev1.EnvVar{Name: "NAME", ValueFrom: field("metadata.name")}, "web-0"},
		{corev1.EnvVar{Name: "NS", ValueFrom: field("metadata.namespace")}, "prod"},
		{corev1.EnvVar{Name: "UID", ValueFrom: field("metadata.uid")}, "uid-1"},
		{corev1.EnvVar{Name: "LABEL", ValueFrom: field("metadata.labels['app']")}, "web"},
		{corev1.EnvVar{Name: "DOTTED", ValueFrom: field("metadata.labels['dotted.io/key']")}, "x"},
		{corev1.EnvVar{Name: "MISSING_LABEL", ValueFrom: field("metadata.labels['nope']")}, ""},
		{corev1.EnvVar{Name: "ANNOTATION", ValueFrom: field("metadata.annotations['version']")}, "v2"},
		{corev1.EnvVar{Name: "NODE", ValueFrom: field("spec.nodeName")}, "kwok-node-0"},
		{corev1.EnvVar{Name: "SA", ValueFrom: field("spec.serviceAccountName")}, "sa"},
		{corev1.EnvVar{Name: "IP", ValueFrom: field("status.podIP")}, "10.0.0.7"},
		{corev1.EnvVar{Name: "IPS", ValueFrom: field("status.podIPs")}, "10.0.0.7,fd00::7"},
		{corev1.EnvVar{Name: "HOST", ValueFrom: field("status.hostIP")}, "10.0.0.1"},
		{corev1.EnvVar{Name: "UNKNOWN", ValueFrom: field("spec.whatever")}, ""},
		{corev1.EnvVar{Name: "BROKEN", ValueFrom: field("metadata.labels['app'")}, ""},
		{corev1.EnvVar{Name: "CM", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{Key: "k"}}}, ""},
		{corev1.EnvVar{Name: "REF", Value: "$(NAME)"}, "$(NAME)"},
	}
	c := &corev1.Container{Name: "app"}
	for _, tt := range tests {
		c.Env = append(c.Env, tt.env)
	}
	got := resolveEnv(pod, c)
	if len(got) != len(tests) {
		t.Fatalf("%d env vars, want %d", len(got), len(tests))
	}
	for i, tt := range tests {
		if got[i].Key != tt.env.Name || got[i].Value != tt.want {
			t.Errorf("%s = %q, want %q", tt.env.Name, got[i].Value, tt.want)
		}
	}
}
