package inplaceupdate

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestMetadataRef(t *testing.T) {
	fieldRef := func(path string) corev1.EnvVar {
		return corev1.EnvVar{Name: "E", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: path}}}
	}
	tests := []struct {
		env      corev1.EnvVar
		kind     string
		key      string
		wantRead bool
	}{
		{fieldRef("metadata.labels['app.kubernetes.io/version']"), metaLabels, "app.kubernetes.io/version", true},
		{fieldRef("metadata.annotations['note']"), metaAnnotations, "note", true},
		{fieldRef("metadata.name"), "", "", false},
		{fieldRef("metadata.labels"), "", "", false},
		{fieldRef("metadata.labels['']"), "", "", false},
		{fieldRef("status.podIP"), "", "", false},
		{corev1.EnvVar{Name: "E", Value: "metadata.labels['x']"}, "", "", false},
	}
	for _, tt := range tests {
		kind, key, ok := metadataRef(&tt.env)
		if kind != tt.kind || key != tt.key || ok != tt.wantRead {
			t.Errorf("metadataRef(%+v) = %q, %q, %v; want %q, %q, %v", tt.env.ValueFrom, kind, key, ok, tt.kind, tt.key, tt.wantRead)
		}
	}
}

// TestEnvFromMetadataHash: what the daemon computes from a container's env equals what
// the pod's metadata calls for exactly when the values agree.
func TestEnvFromMetadataHash(t *testing.T) {
	c := container("main", "app:1", "PLAIN=x", "V=label:version", "R=annotation:role")
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Labels:      map[string]string{"version": "2"},
		Annotations: map[string]string{"role": "edge"},
	}}
	inContainer := func(values map[string]string) uint64 {
		return EnvFromMetadataHash(&c, func(name string) string { return values[name] })
	}
	want := ExpectedEnvFromMetadataHash(pod, &c)
	if got := inContainer(map[string]string{"V": "2", "R": "edge", "PLAIN": "ignored"}); got != want {
		t.Errorf("same values: hash %d != expected %d", got, want)
	}
	if got := inContainer(map[string]string{"V": "1", "R": "edge"}); got == want {
		t.Error("old label value: same hash")
	}
	if got := inContainer(map[string]string{"V": "", "R": "2edge"}); got == inContainer(map[string]string{"V": "2", "R": "edge"}) {
		t.Error("values shifted between vars: same hash")
	}
	if got := EnvFromMetadataHash(&corev1.Container{}, func(string) string { return "" }); got == 0 {
		t.Error("hash 0 means 'not computed'")
	}
}
