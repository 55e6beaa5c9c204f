package envmeta

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func fieldEnv(name, path string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: path}}}
}

// TestHashGolden pins the hash: it is stored in pod annotations by one version of the
// node daemon and compared by the controllers, possibly of another version, so it must
// never change.
func TestHashGolden(t *testing.T) {
	c := &corev1.Container{Name: "app", Env: []corev1.EnvVar{
		{Name: "PLAIN", Value: "x"},
		fieldEnv("VER", "metadata.labels['version']"),
		fieldEnv("OWNER", "metadata.annotations['owner']"),
		fieldEnv("NAME", "metadata.name"),
	}}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{"version": "v2"}, Annotations: map[string]string{"owner": "team-a"}}}
	if got := ExpectedEnvFromMetadataHash(pod, c); got != 5884915678619355280 {
		t.Errorf("expected hash = %d, want 5884915678619355280", got)
	}
	if got := EnvFromMetadataHash(c, func(string) string { return "" }); got != 15952219069546590005 {
		t.Errorf("hash of empty values = %d, want 15952219069546590005", got)
	}
	if got := EnvFromMetadataHash(&corev1.Container{}, func(string) string { return "" }); got != 14695981039346656037 {
		t.Errorf("hash without metadata env = %d, want 14695981039346656037", got)
	}
	// The values inside the container give the same hash when they match the pod.
	inside := map[string]string{"VER": "v2", "OWNER": "team-a", "PLAIN": "ignored", "NAME": "ignored"}
	if got := EnvFromMetadataHash(c, func(n string) string { return inside[n] }); got != 5884915678619355280 {
		t.Errorf("hash of the container's values = %d, want the expected one", got)
	}
}
